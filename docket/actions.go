package docket

import (
	"encoding/json"
	"fmt"
)

// actionDecoders reads each Kind of action back from the event log.
var actionDecoders = map[string]func([]byte) (Action, error){
	File{}.Kind():                  decodeAs[File],
	ScheduleMeeting{}.Kind():       decodeAs[ScheduleMeeting],
	CancelMeeting{}.Kind():         decodeAs[CancelMeeting],
	PostNotice{}.Kind():            decodeAs[PostNotice],
	RecordMailing{}.Kind():         decodeAs[RecordMailing],
	RecordReturnReceipt{}.Kind():   decodeAs[RecordReturnReceipt],
	RecordUndelivered{}.Kind():     decodeAs[RecordUndelivered],
	Rule{}.Kind():                  decodeAs[Rule],
	RecessHearing{}.Kind():         decodeAs[RecessHearing],
	ConcludeHearing{}.Kind():       decodeAs[ConcludeHearing],
	Decide{}.Kind():                decodeAs[Decide],
	DemandPublicHearing{}.Kind():   decodeAs[DemandPublicHearing],
	HoldPublicHearing{}.Kind():     decodeAs[HoldPublicHearing],
	IssueFinal{}.Kind():            decodeAs[IssueFinal],
	FindFrivolous{}.Kind():         decodeAs[FindFrivolous],
	AddCandidacy{}.Kind():          decodeAs[AddCandidacy],
	RecordDelivery{}.Kind():        decodeAs[RecordDelivery],
	RecordEnforcement{}.Kind():     decodeAs[RecordEnforcement],
	SettleFine{}.Kind():            decodeAs[SettleFine],
	ReportReferral{}.Kind():        decodeAs[ReportReferral],
	RecordOfficerResponse{}.Kind(): decodeAs[RecordOfficerResponse],
	Recuse{}.Kind():                decodeAs[Recuse],
	Correct{}.Kind():               decodeAs[Correct],
	Void{}.Kind():                  decodeAs[Void],
	SetParty{}.Kind():              decodeAs[SetParty],
	SetOfficer{}.Kind():            decodeAs[SetOfficer],
	AddDocument{}.Kind():           decodeAs[AddDocument],
}

func decodeAs[T Action](payload []byte) (Action, error) {
	var a T
	err := json.Unmarshal(payload, &a)
	return a, err
}

// DecodeAction reads an action back from its kind and JSON payload, as the event log
// stores them.
func DecodeAction(kind string, payload []byte) (Action, error) {
	decode, ok := actionDecoders[kind]
	if !ok {
		return nil, Invalid("", "kind", fmt.Sprintf("unknown action %q", kind))
	}
	a, err := decode(payload)
	if err != nil {
		return nil, Invalid("", "payload", fmt.Sprintf("cannot read a %s action: %v", kind, err))
	}
	return a, nil
}
