// Package metricsdoc checks, for a test, that docs/metrics.md documents
// exactly the series a registry holds: one table row "| `name` |" for
// each series whose name starts with a prefix, and no other row of it.
package metricsdoc
