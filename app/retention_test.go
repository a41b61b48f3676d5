
// BenchmarkRetireSubmission measures what retention costs per record: the
// FinalizeBlock + Commit (badger on disk) of the block that retires one
// settled workflow task with 1,000 submissions (each with its task_miner,
// task_sub and task_artifact entries), less an empty block's, per
// submission. The setup (registrations, commits, reveals, reports,
// settlement) is untimed. budget.UnitsRetire is sized from it.
func BenchmarkRetireSubmission(b *testing.B) {
	const subs, r = 1000, 50
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		g := retentionGenesis(r)
		g.Chain.MaxUIDs = subs
		g.Membership = testMembership(subs)
		g.Tracks = []genesis.Track{testTrack(genesis.TrackWorkflow, decimal.NewFromInt(1))}
		n := newNode(b, b.TempDir(), g)
		val := reporter(0)
		var regs, commits, reveals, reports [][]byte
		for k := 0; k < subs; k++ {
			m := newMiner(fmt.Sprintf("retire-bench-%d", k), uint32(k+1))
			regs = append(regs, m.tx(b, msgRegister()))
			commits = append(commits, m.commit(b, wfPayloadOf(m, 0)))
			reveals = append(reveals, m.reveal(b, wfPayloadOf(m, 0)))
			reports = append(reports, val.tx(b, msgWorkflowReport(uint64(k), workflowM())))
		}
		for _, txs := range [][][]byte{regs, {val.tx(b, msgWorkflowTask(4, 1, 2))}, commits, reveals, reports} {
			mustOK(b, n.finalize(txs...))
		}
		for n.height < 6+r-1 { // the task closes at 6; retired at 6 + r
			n.finalize()
		}
		b.StartTimer()
		resp := n.finalize()
		b.StopTimer()
		if v, _ := eventAttr(resp.Events, wire.EventStateRetired, "submissions"); v != fmt.Sprint(subs) {
			b.Fatalf("retired %q submissions, want %d", v, subs)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*subs)/1000, "µs/submission")
}
