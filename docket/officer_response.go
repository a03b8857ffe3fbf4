package docket

import "fmt"

// RecordOfficerResponse records the response of the officer with authority to discipline
// to a recommendation for discipline the commission sent (E)(2), (F): the discipline
// imposed, or declined. The ordinance leaves discipline to that officer; the commission
// keeps the matter on its docket until the response comes, so that a recommendation is not
// lost once mailed.
type RecordOfficerResponse struct {
	Response string `json:"response"` // as the officer gave it: "written reprimand issued"
	On       Date   `json:"on,omitzero"`
}

// OfficerResponse is the officer's response to a recommendation, as recorded.
type OfficerResponse struct {
	Response string `json:"response"`
	On       Date   `json:"on"`
}

// OfficerAwaited reports whether a recommendation for discipline sent to the officer with
// authority to discipline awaits the officer's response.
func (c *Case) OfficerAwaited() bool { return !c.AwaitingOfficer.IsZero() }

// Kind implements Action.
func (RecordOfficerResponse) Kind() string { return "officer_response" }

// Did implements Action: "the officer's response to the recommendation recorded:
// "written reprimand issued"".
func (a RecordOfficerResponse) Did(Wording) Words {
	return said("the response of the officer with authority to discipline to the recommendation recorded: %s",
		Quoted(a.Response))
}

func (a RecordOfficerResponse) apply(x *applying) error {
	c := x.c
	if !c.OfficerAwaited() {
		return conflict("(E)(2)", fmt.Sprintf("case %s has no recommendation for discipline awaiting the officer's "+
			"response: one is awaited once the recommendation_officer or final_officer is recorded as sent", c.Number))
	}
	if err := x.checkLine("response", "(E)(2)", a.Response, true, MaxName); err != nil {
		return err
	}
	on, err := x.stepDate("on", "(E)(2)", a.On, c.AwaitingOfficer, "the recommendation's sending")
	if err != nil {
		return err
	}
	c.OfficerResponses = append(c.OfficerResponses, OfficerResponse{Response: a.Response, On: on})
	c.AwaitingOfficer = 0
	return nil
}
