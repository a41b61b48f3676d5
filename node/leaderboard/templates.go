package leaderboard

import (
	"html/template"
	"strings"
)

// short writes a fixed-place decimal without its trailing zeros
// ("0.500000000000000000" → "0.5", "100.000…" → "100"); the JSON keeps the
// answer's exact strings.
func short(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// pages are the HTML templates: one layout, a body per page. CSS is inline
// and there is no script, so a page needs nothing but this node.
var pages = template.Must(template.New("").Funcs(template.FuncMap{"short": short, "round": round}).Parse(`
{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="10">
<title>{{.}} · validatord leaderboard</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:100em;padding:0 1em;color:#1d232a;background:#fbfbfc}
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin:1.2em 0 .4em}h2 small{color:#5f6a76;font-weight:normal;font-size:.75em}h1 small{color:#5f6a76;font-weight:normal;font-size:.7em}
nav a{margin-right:1em}nav{margin-bottom:1em}
.wide{overflow-x:auto}
table{border-collapse:collapse;width:100%;background:#fff;box-shadow:0 1px 2px #0001}
th,td{padding:.35em .6em;border-bottom:1px solid #e3e6ea;text-align:right;white-space:nowrap}
th{background:#eef1f4;font-weight:600}
td.l,th.l{text-align:left}
tr:nth-child(even) td{background:#f7f8fa}
.muted{color:#5f6a76}.board table{width:auto;min-width:24em}svg.chart{width:100%;max-width:600px;height:auto;display:block;margin:.4em 0}dl.facts{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dl.facts dd{margin:0}.flag{color:#a33}
p.meta{color:#5f6a76}
</style></head><body>
<nav><a href="/">index</a><a href="/epoch">epoch</a><a href="/epochs">epochs</a><a href="/epoch.json">json</a></nav>
{{end}}

{{define "foot"}}<p class="meta">Read from the node's committed state; the page reloads every 10 s.</p></body></html>{{end}}

{{define "status"}}<p id="status" class="meta">height <span id="height">{{.Height}}</span>{{if .BlockTime}} · last block <time datetime="{{.BlockTime}}">{{.BlockTime}}</time> · <span id="lag">{{.Lag}} ago</span>{{end}}</p>{{end}}

{{define "chain"}}<section id="chain"><h2>chain</h2>
{{with .Counts}}<dl class="facts" id="counts"><dt>uids held</dt><dd data-col="uids">{{.UIDs}}</dd>
<dt>open tasks</dt><dd data-col="open-tasks">{{.OpenTasks}}{{range .Tracks}}{{if ne .Track "gas"}} · {{.Track}} {{.OpenTasks}}{{end}}{{end}}</dd>
<dt>commits awaiting their reveal</dt><dd data-col="awaiting-reveal">{{range $i, $t := .Tracks}}{{if $i}} · {{end}}{{$t.Track}} {{$t.AwaitingReveal}}{{end}}</dd></dl>{{end}}
{{if .Oracles}}<div class="wide"><table id="oracles"><thead><tr><th scope="col">EVM chain</th><th scope="col" class="l">gas oracle</th><th scope="col">last closed block</th><th scope="col">its EVM time</th><th scope="col">behind the last block</th></tr></thead><tbody>
{{range .Oracles}}<tr><td data-col="evm-chain">{{.EvmChainID}}</td><td data-col="state" class="l">{{.State}}</td><td data-col="closed">{{with .LastClosedBlock}}{{.}}{{else}}–{{end}}</td><td data-col="evm-time">{{with .EVMTime}}<time datetime="{{.}}">{{.}}</time>{{else}}–{{end}}</td><td data-col="behind">{{with .Behind}}{{.}}{{else}}–{{end}}</td></tr>
{{end}}</tbody></table></div>{{end}}</section>{{end}}

{{define "index"}}{{template "head" "index"}}
<h1>validatord leaderboard</h1>
{{template "status" .Status}}
{{template "chain" .Chain}}
{{range .Boards}}<section class="board">
<h2><a href="/track/{{.Track}}">track {{.Track}}</a> <small>{{if gt .Total (len .Rows)}}top {{len .Rows}} of {{.Total}} · {{end}}<a href="/track/{{.Track}}.json">json</a></small></h2>
<div class="wide"><table id="board-{{.Track}}"><thead><tr><th scope="col">rank</th><th scope="col">uid</th><th scope="col">score</th></tr></thead><tbody>
{{range .Rows}}<tr><td data-col="rank">{{.Rank}}</td><td data-col="uid"><a href="/miner/{{.UID}}">{{.UID}}</a></td><td data-col="score" title="{{.Score}}">{{round .Score}}</td></tr>
{{else}}<tr><td colspan="3" class="l muted">{{with .Empty}}{{.}}{{else}}no miner has an aggregate on this track{{end}}</td></tr>
{{end}}</tbody></table></div></section>
{{end}}
<h2>tasks <small>newest first{{if .After}}, below id {{.After}}{{end}} · <a href="/index.json{{if .After}}?after={{.After}}{{end}}">json</a></small></h2>
<div class="wide"><table id="tasks"><thead><tr><th scope="col">task</th><th scope="col" class="l">track</th><th scope="col" class="l">phase</th><th scope="col">phase ends at</th><th scope="col">submit until</th><th scope="col">reveal until</th><th scope="col">report until</th><th scope="col">commits</th></tr></thead><tbody>
{{range .Tasks}}<tr><td data-col="task">{{if .Link}}<a href="{{.Link}}">{{.ID}}</a>{{else}}{{.ID}}{{end}}</td><td data-col="track" class="l">{{.Track}}</td><td data-col="phase" class="l phase-{{.Phase}}">{{.Phase}}</td><td data-col="ends">{{if .Ends}}{{.Ends}}{{else}}–{{end}}</td><td data-col="submit">{{.SubmitDeadline}}</td><td data-col="reveal">{{.RevealDeadline}}</td><td data-col="report">{{.ReportDeadline}}</td><td data-col="commits">{{.Submissions}}</td></tr>
{{else}}<tr><td colspan="8" class="l muted">no task{{if .After}} below id {{.After}}{{end}}</td></tr>
{{end}}</tbody></table></div>
<p class="pager">{{if .After}}<a href="/">newest tasks</a> {{end}}{{with .NextAfter}}<a rel="next" href="/?after={{.}}">older tasks</a>{{end}}</p>
<form action="/task" method="get"><label>arena task <input name="id" size="8" inputmode="numeric"></label> <button>results</button></form>
<form action="/miner" method="get"><label>miner uid <input name="uid" size="8" inputmode="numeric"></label> <button>show</button></form>
{{template "foot"}}{{end}}

{{define "track"}}{{template "head" .Track}}
<h1>track {{.Track}} <small>height <span id="height">{{.Height}}</span>{{if .Rows}} · ranks {{.First}}–{{.Last}} of {{.Total}}{{end}} · <a href="/track/{{.Track}}.json{{if .After}}?after={{.After}}{{end}}">json</a></small></h1>
<p id="ranks" class="muted">ranks {{.Leaderboard.Ranks}}; a miner still warming up shows its mean scaled by tasks seen / warm-up tasks</p>
<div class="wide"><table id="rows"><thead><tr><th scope="col">rank</th><th scope="col">uid</th><th scope="col">score</th><th scope="col">window fill</th><th scope="col">warm-up</th></tr></thead><tbody>
{{range .Rows}}<tr><td data-col="rank">{{.Rank}}</td><td data-col="uid"><a href="/miner/{{.UID}}">{{.UID}}</a></td><td data-col="score">{{short .Score}}</td>
{{with .Window}}<td data-col="fill">{{.Fill}}</td><td data-col="warmup">{{.Warmup}}</td>{{else}}<td data-col="fill" class="muted">–</td><td data-col="warmup" class="muted">–</td>{{end}}</tr>
{{else}}<tr><td colspan="5" class="l muted" id="empty">{{if .Total}}no miner ranked after {{.After}}: the board has {{.Total}}{{else}}{{with .Leaderboard.Empty}}{{.}}{{else}}no miner has an aggregate on this track{{end}}{{end}}</td></tr>
{{end}}</tbody></table></div>
<p class="pager">{{with .PrevHref}}<a rel="prev" href="{{.}}">previous page</a> {{end}}{{with .NextHref}}<a rel="next" href="{{.}}">next page</a>{{end}}</p>
{{template "foot"}}{{end}}

{{define "epoch"}}{{template "head" "epoch"}}
<h1>epoch {{.Number}} <small>computed at height <span id="height">{{.Height}}</span> · unallocated {{short .Unallocated}} · <a href="/epoch/{{.Number}}.json">json</a>{{if .Proof}} (with its Merkle proof at state <span id="proof-height">{{.Proof.Height}}</span>){{end}}</small></h1>
<div class="wide"><table id="rows"><thead><tr><th scope="col">rank</th><th scope="col">uid</th><th scope="col" class="l">who</th><th scope="col">weight</th><th scope="col">u16</th>{{range .Tracks}}<th scope="col">score {{.}}</th>{{end}}{{range .Windowed}}<th scope="col">window {{.}}</th><th scope="col">warm-up {{.}}</th>{{end}}</tr></thead><tbody>
{{range .Rows}}<tr><td data-col="rank">{{.Rank}}</td><td data-col="uid">{{if eq .UID 0}}0{{else}}<a href="/miner/{{.UID}}">{{.UID}}</a>{{end}}</td><td data-col="who" class="l">{{if eq .UID 0}}burn (unallocated){{else}}miner{{end}}</td><td data-col="weight">{{short .Weight}}</td><td data-col="u16">{{.U16}}</td>{{range .Scores}}<td data-col="score-{{.Track}}">{{short .Score}}</td>{{end}}{{range .Windows}}{{if .Window}}<td data-col="fill-{{.Track}}">{{.Window.Fill}}</td><td data-col="warmup-{{.Track}}">{{.Window.Warmup}}</td>{{else}}<td data-col="fill-{{.Track}}" class="muted">–</td><td data-col="warmup-{{.Track}}" class="muted">–</td>{{end}}{{end}}</tr>
{{end}}</tbody></table></div>
{{template "foot"}}{{end}}

{{define "task"}}{{template "head" "task"}}
{{with .Results}}<h1>arena task {{.TaskID}} <small>{{.Category}} · {{.Difficulty}} · {{.Scored}} scored · 95% CI [{{short .ConfidenceInterval.Low}}, {{short .ConfidenceInterval.High}}] · <a href="/task/{{.TaskID}}.json">json</a></small></h1>
<div class="wide"><table id="rows"><thead><tr><th scope="col">rank</th><th scope="col">uid</th><th scope="col">submission</th><th scope="col">overall</th><th scope="col">percentile</th><th scope="col">efficiency</th><th scope="col">speed</th><th scope="col">cost</th><th scope="col">correctness</th><th scope="col" class="l">outlier flags</th><th scope="col" class="l">warnings</th></tr></thead><tbody>
{{range .Results}}<tr><td data-col="rank">{{.Rank}}</td><td data-col="uid"><a href="/miner/{{.UID}}">{{.UID}}</a></td><td data-col="submission">{{.SubmissionID}}</td><td data-col="overall">{{short .OverallScore}}</td><td data-col="percentile">{{short .Percentile}}</td>
<td data-col="efficiency">{{short .EfficiencyScore}} <span class="muted">#{{.CategoryRanks.Efficiency}}</span></td><td data-col="speed">{{short .SpeedScore}} <span class="muted">#{{.CategoryRanks.Speed}}</span></td><td data-col="cost">{{short .CostScore}} <span class="muted">#{{.CategoryRanks.Cost}}</span></td><td data-col="correctness">{{short .CorrectnessScore}} <span class="muted">#{{.CategoryRanks.Correctness}}</span></td>
<td data-col="flags" class="l{{if .Outlier}} flag{{end}}">{{range $i, $f := .OutlierFlags}}{{if $i}}, {{end}}{{$f}}{{end}}</td><td data-col="warnings" class="l">{{range $i, $w := .Warnings}}{{if $i}}; {{end}}{{$w}}{{end}}</td></tr>
{{else}}<tr><td colspan="11" class="l muted">no scored submission yet</td></tr>
{{end}}</tbody></table></div>{{end}}
{{template "foot"}}{{end}}

{{define "miner"}}{{template "head" (printf "miner %d" .UID)}}
<h1>miner {{.UID}}{{if eq .UID 0}} <small>burn (unallocated)</small>{{end}} <small><a href="/miner/{{.UID}}.json{{if .After}}?after={{.After}}{{end}}">json</a></small></h1>
{{template "status" .Status}}
{{with .Miner}}<dl class="facts"><dt>key</dt><dd><code>{{.Pubkey}}</code></dd><dt>registered</dt><dd>height {{.RegisteredHeight}} (immune through {{.ImmuneThrough}})</dd>
{{if .Address}}<dt>serves artifacts at</dt><dd id="address"><code>{{.Address}}</code> (since height {{.ServedHeight}})</dd>{{end}}</dl>{{end}}
{{if .Inactive}}<p id="inactive" class="flag">{{.Inactive}}</p>{{end}}
<h2>aggregates</h2>
<div class="wide"><table id="aggregates"><thead><tr><th scope="col" class="l">track</th><th scope="col">score</th><th scope="col">window fill</th><th scope="col">warm-up</th><th scope="col" class="l">window scores, oldest first</th></tr></thead><tbody>
{{$w := .Windows}}{{range .Aggregates}}{{$tr := .Track}}<tr><td data-col="track" class="l">{{.Track}}</td><td data-col="score" title="{{.Score}}">{{if .Score}}{{round .Score}}{{else}}<span class="muted">none</span>{{end}}</td>
{{$found := false}}{{range $w}}{{if eq .Track $tr}}{{$found = true}}{{with .Window}}<td data-col="fill">{{.Fill}}</td><td data-col="warmup">{{.Warmup}}</td>{{else}}<td data-col="fill" class="muted">–</td><td data-col="warmup" class="muted">–</td>{{end}}<td data-col="scores" class="l">{{range $i, $s := .Scores}}{{if $i}}, {{end}}{{round $s}}{{end}}</td>{{end}}{{end}}{{if not $found}}<td data-col="fill" class="muted">–</td><td data-col="warmup" class="muted">–</td><td data-col="scores" class="l muted">–</td>{{end}}</tr>
{{end}}</tbody></table></div>
{{if .Gas}}<h2>gas agents</h2>
<div class="wide"><table id="gas"><thead><tr><th scope="col">EVM chain</th><th scope="col">memory</th><th scope="col">score</th></tr></thead><tbody>
{{range .Gas}}<tr><td data-col="chain">{{.EvmChainID}}</td><td data-col="progress">{{.Progress}} windows</td><td data-col="score" title="{{.Score}}">{{if .Score}}{{round .Score}}{{else}}<span class="muted">none yet</span>{{end}}</td></tr>
{{end}}</tbody></table></div>{{end}}
<h2>weight over the last epochs</h2>
{{.WeightChart}}
<div class="wide"><table id="epochs"><thead><tr><th scope="col">epoch</th><th scope="col">height</th><th scope="col">weight</th><th scope="col">u16</th><th scope="col" class="l">proof</th></tr></thead><tbody>
{{range .Epochs}}<tr><td data-col="epoch"><a href="{{.Link}}">{{.Number}}</a></td><td data-col="height">{{.Height}}</td><td data-col="weight" title="{{.Weight}}">{{round .Weight}}</td><td data-col="u16">{{.U16}}</td><td data-col="proof" class="l">{{if .Proof}}<a href="{{.Proof}}">Merkle proof</a>{{else}}<span class="muted">next block</span>{{end}}</td></tr>
{{else}}<tr><td colspan="5" class="l muted">no epoch yet</td></tr>
{{end}}</tbody></table></div>
<h2>submissions <small>newest first{{if .After}}, below id {{.After}}{{end}}</small></h2>
{{.ScoreChart}}
<div class="wide"><table id="submissions"><thead><tr><th scope="col">id</th><th scope="col" class="l">track</th><th scope="col" class="l">for</th><th scope="col">committed</th><th scope="col">revealed</th><th scope="col" class="l">status</th><th scope="col">score</th><th scope="col" class="l">receipt</th></tr></thead><tbody>
{{range .Submissions}}<tr><td data-col="id">{{.ID}}</td><td data-col="track" class="l">{{.Track}}</td><td data-col="target" class="l">{{if .TaskLink}}<a href="{{.TaskLink}}">{{.Target}}</a>{{else}}{{.Target}}{{end}}</td><td data-col="height">{{.Height}}</td><td data-col="reveal">{{if .RevealHeight}}{{.RevealHeight}}{{else}}–{{end}}</td><td data-col="status" class="l status-{{.Status}}">{{.Label}}</td><td data-col="score"{{with .Score}} title="{{.}}"{{end}}>{{with .Score}}{{round .}}{{else}}–{{end}}</td><td data-col="receipt" class="l"><a href="{{.Receipt}}"><code>{{.Query}}</code></a></td></tr>
{{else}}<tr><td colspan="8" class="l muted">no submission{{if .After}} below id {{.After}}{{end}}</td></tr>
{{end}}</tbody></table></div>
<p class="pager">{{if .After}}<a href="/miner/{{.UID}}">newest submissions</a> {{end}}{{with .NextAfter}}<a rel="next" href="/miner/{{$.UID}}?after={{.}}">older submissions</a>{{end}}</p>
{{template "foot"}}{{end}}

{{define "epochs"}}{{template "head" "epochs"}}
<h1>the last epochs' weights <small><a href="/epochs.json">json</a></small></h1>
{{template "status" .Status}}
<p class="muted">Newest epoch first. Uid 0 takes the weight no miner earned; a miner the activity cutoff dropped stays listed, inactive since the height it lost its last aggregate.</p>
<div class="wide"><table id="rows"><thead><tr><th scope="col">uid</th><th scope="col" class="l">who</th>{{range .Epochs}}<th scope="col"><a href="{{.Link}}">epoch {{.Number}}</a></th>{{end}}</tr></thead><tbody>
{{range .Rows}}<tr><td data-col="uid">{{if .Link}}<a href="{{.Link}}">{{.UID}}</a>{{else}}{{.UID}}{{end}}</td><td data-col="who" class="l">{{.Label}}</td>{{range $i, $w := .Weights}}<td data-col="e{{$i}}"{{with $w}} title="{{.}}"{{end}}>{{with $w}}{{round .}}{{else}}<span class="muted">–</span>{{end}}</td>{{end}}</tr>
{{else}}<tr><td colspan="2" class="l muted">no uid yet</td></tr>
{{end}}</tbody></table></div>
{{if not .Epochs}}<p class="muted">no epoch yet</p>{{end}}
{{template "foot"}}{{end}}

{{define "error"}}{{template "head" "error"}}
<h1>{{.Status}} {{.Text}}</h1><p>{{.Message}}</p>
{{template "foot"}}{{end}}
`))
