#!/usr/bin/env bash
# Check deploy/nginx.conf with `nginx -t`, as nginx would load it from conf.d, with a
# throw-away self-signed certificate in place of the commission's; then run it, on ports of
# this machine, in front of an ethicsbot that is down, and check that its error log holds
# no calendar token and no query string, and does hold the board's failures. Used by .ci/run.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=ethics.example.gov \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
sed -e "s|/etc/letsencrypt/live/ethics.example.gov/fullchain.pem|$work/cert.pem|" \
    -e "s|/etc/letsencrypt/live/ethics.example.gov/privkey.pem|$work/key.pem|" \
    -e "s|/var/log/nginx/ethicsbot.access.log|$work/access.log|" nginx.conf > "$work/site.conf"
cat > "$work/nginx.conf" <<CONF
pid $work/nginx.pid;
error_log $work/error.log;
events {}
http {
    client_body_temp_path $work/body;
    proxy_temp_path $work/proxy;
    fastcgi_temp_path $work/fastcgi;
    uwsgi_temp_path $work/uwsgi;
    scgi_temp_path $work/scgi;
    include $work/site.conf;
}
CONF
nginx -q -t -c "$work/nginx.conf" -p "$work/"
echo "deploy/nginx.conf: nginx -t passed"

# Run it: ethicsbot "down" (the upstreams on port 1, where nothing listens), nginx on two
# free ports of 127.0.0.1, in the foreground as one process, so that it is ours to stop.
port=$((20000 + RANDOM % 20000))
sed -i -e "s|listen 443 ssl http2;|listen 127.0.0.1:$port ssl http2;|" -e "s|listen 80;|listen 127.0.0.1:$((port + 1));|" \
    -e '/listen \[::\]/d' -e 's|server 127.0.0.1:300[0-9];|server 127.0.0.1:1;|' "$work/site.conf"
sed -i -e "1i daemon off;" -e "1i master_process off;" "$work/nginx.conf"
nginx -c "$work/nginx.conf" -p "$work/" &
nginx_pid=$!
trap 'kill "$nginx_pid" 2>/dev/null; wait "$nginx_pid" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do
  curl -sk -o /dev/null "https://127.0.0.1:$port/" && break
  sleep 0.1
done
get() { curl -sk -o /dev/null -w '%{http_code}' -H 'Host: ethics.example.gov' "$@"; }
statuses=""
for req in "/calendar/SECRET-TOKEN-1" "/calendar/SECRET-TOKEN-2.ics?SECRET-QUERY-1" "/?SECRET-QUERY-2=x" \
    "//calendar/SECRET-TOKEN-3" "/calendar%2FSECRET-TOKEN-4" "/feed.atom?q=SECRET-QUERY-3" "/feed.atom"; do
  statuses="$statuses $(get "https://127.0.0.1:$port$req")"
done
statuses="$statuses $(get -X POST "https://127.0.0.1:$port/calendar/SECRET-TOKEN-5")"
statuses="$statuses $(get "http://127.0.0.1:$((port + 1))/calendar/SECRET-TOKEN-6?SECRET-QUERY-4")"
statuses="$statuses $(get "https://127.0.0.1:$port/%0d%0aSet-Cookie:SECRET-QUERY-5?x")"
want=" 502 301 301 502 502 301 502 403 301 400"
if [ "$statuses" != "$want" ]; then
  echo "deploy/nginx.conf answered$statuses; want$want"; cat "$work/error.log"; exit 1
fi
location=$(curl -sk -o /dev/null -w '%{redirect_url}' -H 'Host: ethics.example.gov' "https://127.0.0.1:$port/feed.atom?q=x")
if [ "$location" != "https://ethics.example.gov:$port/feed.atom" ]; then
  echo "deploy/nginx.conf sends /feed.atom?q=x to $location; want the same address without the query"; exit 1
fi
if grep -q SECRET "$work/error.log"; then
  echo "deploy/nginx.conf writes a calendar token or a query string into the error log:"
  grep SECRET "$work/error.log"; exit 1
fi
if ! grep -q 'request: "GET /feed.atom HTTP' "$work/error.log"; then
  echo "deploy/nginx.conf does not log the board's failures:"; cat "$work/error.log"; exit 1
fi
echo "deploy/nginx.conf: its error log holds no calendar token and no query string"
