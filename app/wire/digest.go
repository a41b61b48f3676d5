package wire

// DigestView answers "digest": the score digest (store.ScoreDigest, hex) of
// the state at Height, whose app hash is AppHash, and how many entries it
// covers.
type DigestView struct {
	Height       int64  `json:"height"`
	AppHash      string `json:"app_hash"`
	ScoreDigest  string `json:"score_digest"`
	ScoreEntries int    `json:"score_entries"`
}
