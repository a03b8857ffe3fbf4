package bot

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// MaxSkew is how far a request's timestamp may be from our clock: Slack's own advice, so
// a captured request cannot be replayed later.
const MaxSkew = 5 * time.Minute

// Signature errors; none says which part was wrong beyond what the sender already knows.
var (
	ErrNoSignature = errors.New("request is not signed: X-Slack-Signature and X-Slack-Request-Timestamp are required")
	ErrStale       = errors.New("request timestamp is more than 5 minutes from now")
	ErrBadSig      = errors.New("request signature does not match")
)

// Verify checks Slack's v0 request signature: HMAC-SHA256 of "v0:timestamp:body" under
// the signing secret, compared in constant time, with the timestamp within MaxSkew of now.
// now is passed in so that Slack's published example, signed in 2018, can be checked.
func Verify(h http.Header, body []byte, secret string, now time.Time) error {
	sig, ts := h.Get("X-Slack-Signature"), h.Get("X-Slack-Request-Timestamp")
	if sig == "" || ts == "" || secret == "" {
		return ErrNoSignature
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return ErrNoSignature
	}
	if d := now.Sub(time.Unix(secs, 0)); d > MaxSkew || d < -MaxSkew {
		return ErrStale
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("v0:" + ts + ":"))
	mac.Write(body)
	want := "v0=" + hex.EncodeToString(mac.Sum(nil))
	if !hmac.Equal([]byte(sig), []byte(want)) {
		return ErrBadSig
	}
	return nil
}
