// Package signrec is a validator's signing record, in the spirit of the
// slashing-protection databases of Ethereum validators: before a validator
// signs a measurement for a submission it records it here, and the record
// refuses a measurement that differs from one already signed for the same
// submission. Because every record is on disk (fsynced) before Sign returns,
// this holds across crashes and restarts: a validator never signs two
// conflicting measurements for one submission.
//
// The record is an append-only file of JSON lines, one Entry per line. A
// crash in the middle of an append leaves a torn last line, or a run of NUL
// bytes where the file system had not yet written the appended data; Open
// drops and truncates such a tail (it was never acknowledged, so nothing was
// signed from it).
// Any other unreadable line is an error, since guessing could lose a
// signature. The record is locked with flock on a sibling "<path>.lock" file
// so two daemons cannot share it; the lock is on a separate file because
// Prune replaces the data file.
package signrec
