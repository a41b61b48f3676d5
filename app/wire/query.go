package wire

// Result codes of ABCI queries (docs/queries.md), in codespace Codespace.
// They are a separate table from the transaction codes: a query's code 1 is
// a bad request, not a malformed transaction.
const (
	QueryOK         uint32 = 0
	QueryBadRequest uint32 = 1 // unknown path or malformed argument
	QueryNotFound   uint32 = 2 // well-formed, but nothing is stored there
	QueryInternal   uint32 = 3 // the handler failed (never expected)
)

// QueryCodes is the query code table, in code order: QueryCodes[i].Code == i.
var QueryCodes = []CodeInfo{
	{QueryOK, "ok", "answered"},
	{QueryBadRequest, "bad_request", "unknown path, wrong argument count or malformed argument"},
	{QueryNotFound, "not_found", "well-formed, but nothing is stored there"},
	{QueryInternal, "internal", "the handler failed (never expected)"},
}

// QueryCodeName returns the short name of a query code ("unknown" for codes
// not defined).
func QueryCodeName(code uint32) string {
	if int(code) < len(QueryCodes) {
		return QueryCodes[code].Name
	}
	return "unknown"
}

// RetiredNote is in the log of every not-found answer for an item that
// state retention deleted (chain.retain_state_blocks, docs/retention.md):
// clients tell a retired item from one not there yet by it.
const RetiredNote = "retired by state retention"
