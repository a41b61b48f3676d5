#!/usr/bin/env python3
"""Reference vectors for x/scoring stats, arena and gas, in Python's decimal at 50 digits.

An independent reading of the seeds (shared/seeds/agentic-arena-metrics.md and
gas-agent-evaluation.md) and of the rounding points of docs/scoring.md, sections "numeric",
"gas" and "arena". Standard library only. Statistics come from Python's own `statistics`
module over Decimals (exact sums in fractions, square roots correctly rounded at 50 digits);
every value is then quantized to 18 places half away from zero where the Go code names a
rounding point. The Go tests read the JSON files; they never run this script.

Usage (from the repository root):
    python3 scripts/golden_arena_gas.py x/scoring/testdata
"""

import decimal
import json
import os
import random
import statistics
import sys
from decimal import Decimal as D

CTX = decimal.getcontext()
CTX.prec = 50
CTX.rounding = decimal.ROUND_HALF_EVEN  # intermediate arithmetic at 50 digits
CTX.Emin = -999999
CTX.Emax = 999999

Q18 = D("1e-18")
Q2 = D("0.01")
Q1 = D("0.1")
HUNDRED = D(100)


def q18(x):
    return D(x).quantize(Q18, rounding=decimal.ROUND_HALF_UP)


def fmt(x):
    """Canonical text: fixed 18 places (the Go side's scoring.Format)."""
    return str(q18(x))


# ----------------------------------------------------------------------------- statistics

def stats_case(xs):
    ds = [D(x) for x in xs]
    case = {"xs": [str(x) for x in xs], "sum": fmt(sum(ds, D(0)))}
    if ds:
        case["mean"] = fmt(statistics.mean(ds))
        case["pstdev"] = fmt(statistics.pstdev(ds))
        case["median"] = fmt(statistics.median(ds))
    if len(ds) >= 2:
        case["stdev"] = fmt(statistics.stdev(ds))
        case["quartiles"] = [fmt(q) for q in statistics.quantiles(ds, n=4)]
    return case


def stats_cases(rng):
    fixed = [
        [],
        ["7"],
        ["-2.5"],
        ["1", "2"],
        ["0", "10"],
        ["3", "3", "3"],
        ["1", "2", "3"],
        ["1", "2", "3", "4"],
        ["1.02", "0.98", "1.10", "0.95", "1.00", "1.05", "0.97", "1.01", "0.99", "1.03"],
        ["0.000000000000000001", "0.000000000000000002"],
        ["0.000000000000000001", "0.000000000000000002", "0.000000000000000004"],
        ["999999999999", "1", "-999999999999"],
        ["0.1", "0.2", "0.3", "0.4", "0.5"],
        ["5", "1", "4", "2", "3", "6"],
    ]
    out = [stats_case(xs) for xs in fixed]
    for _ in range(120):
        n = rng.randint(1, 25)
        places = rng.choice([0, 2, 6, 18])
        scale = rng.choice([1, 100, 10**6])
        xs = []
        for _ in range(n):
            v = D(rng.randint(-scale * 10**places, scale * 10**places)).scaleb(-places)
            xs.append(v)
        out.append(stats_case(xs))
    return out


# ----------------------------------------------------------------------------- arena

DEFAULT_WEIGHTS = {"efficiency": D("0.35"), "speed": D("0.25"), "cost": D("0.20"), "correctness": D("0.20")}
CATEGORY_WEIGHTS = {
    "frontend_development": {"efficiency": D("0.30"), "speed": D("0.25"), "cost": D("0.15"), "correctness": D("0.30")},
    "backend_development": {"efficiency": D("0.35"), "speed": D("0.30"), "cost": D("0.20"), "correctness": D("0.15")},
    "data_analysis": {"efficiency": D("0.40"), "speed": D("0.20"), "cost": D("0.25"), "correctness": D("0.15")},
    "debugging": {"efficiency": D("0.25"), "speed": D("0.35"), "cost": D("0.15"), "correctness": D("0.25")},
    "refactoring": {"efficiency": D("0.45"), "speed": D("0.20"), "cost": D("0.20"), "correctness": D("0.15")},
}
DIFFICULTY = {"beginner": D("1.0"), "intermediate": D("1.1"), "advanced": D("1.2")}


def token_score(s, b):
    t, lo, hi = D(s["total_tokens"]), D(b["min_tokens"]), D(b["max_tokens"])
    if t <= lo:
        return D(100)
    if t >= hi:
        return D(0)
    return min(HUNDRED, q18((hi - t) * 100 / (hi - lo)))


def tool_call_score(s, b):
    c, lo, hi = D(s["tool_calls"]), D(b["min_tool_calls"]), D(b["max_tool_calls"])
    if c <= lo:
        return D(100)
    if c >= hi:
        return D(0)
    return q18((hi - c) * 100 / (hi - lo))


def iteration_score(s, b):
    it, med = D(s["iterations"]), D(b["median_iterations"])
    if it == 1:
        return D(100)
    if it <= med:
        return max(D(50), D(100) - (it - 1) * 15)
    return max(D(0), D(50) - (it - med) * 10)


def speed_score(s, b):
    t = D(s["execution_time"])
    if t == 0:
        return D(50)
    lo, hi = D(b["min_execution_time"]), D(b["max_execution_time"])
    if t <= lo:
        return D(100)
    if t >= hi:
        return D(0)
    ratio = q18((hi - t) / (hi - lo))
    if ratio == 0:
        return D(0)
    return min(HUNDRED, q18(ratio ** D("0.7")) * 100)


def cost_score(s, b):
    c = D(s["estimated_cost"])
    if c == 0:
        return D(50)
    lo, hi = D(b["min_cost"]), D(b["max_cost"])
    if c <= lo:
        return D(100)
    if c >= hi:
        return D(0)
    return q18((hi - c) * 100 / (hi - lo))


def correctness_score(s):
    total = s["criteria_total"]
    if total == 0:
        return D(100)
    return q18(D(s["criteria_passed"]) * 100 / D(total))


def arena_invalid(s, b, category):
    if min(s["total_tokens"], s["tool_calls"], s["criteria_passed"], s["criteria_total"]) < 0:
        return True
    if s["iterations"] < 1 or D(s["execution_time"]) < 0 or D(s["estimated_cost"]) < 0:
        return True
    if s["criteria_passed"] > s["criteria_total"]:
        return True
    for k in ("tokens", "tool_calls", "execution_time", "cost"):
        lo, mid, hi = D(b["min_" + k]), D(b["median_" + k]), D(b["max_" + k])
        if lo < 0 or mid < lo or hi < mid:
            return True
    if D(b["median_iterations"]) < 1:
        return True
    return category != "" and category not in CATEGORY_WEIGHTS


def overall(s, b, category, difficulty):
    w = DEFAULT_WEIGHTS if category == "" else CATEGORY_WEIGHTS[category]
    tok, tool, it = token_score(s, b), tool_call_score(s, b), iteration_score(s, b)
    eff = q18(tok * D("0.5") + tool * D("0.3") + it * D("0.2"))
    spd, cst, cor = speed_score(s, b), cost_score(s, b), correctness_score(s)
    unadj = q18(eff * w["efficiency"] + spd * w["speed"] + cst * w["cost"] + cor * w["correctness"])
    adjusted = min(HUNDRED, q18(unadj * DIFFICULTY.get(difficulty, D("1.0"))))
    r2 = lambda x: str(x.quantize(Q2, rounding=decimal.ROUND_HALF_UP))
    return {
        "overall_score": r2(adjusted), "efficiency_score": r2(eff), "speed_score": r2(spd),
        "cost_score": r2(cst), "correctness_score": r2(cor),
        "token_score": fmt(tok), "tool_call_score": fmt(tool), "iteration_score": fmt(it),
        "efficiency_exact": fmt(eff), "speed_exact": fmt(spd), "cost_exact": fmt(cst),
        "unadjusted": fmt(unadj), "adjusted": fmt(adjusted),
    }


def dstr(rng, lo, hi, places):
    return str(D(rng.randint(int(lo * 10**places), int(hi * 10**places))).scaleb(-places))


def random_baseline(rng):
    def triple(lo, hi, places):
        a, c = sorted([D(dstr(rng, lo, hi, places)), D(dstr(rng, lo, hi, places))])
        if rng.random() < 0.1:
            c = a  # min == max
        m = D(dstr(rng, 0, 1, 3)) * (c - a) + a
        return str(a), str(m), str(c)
    b = {}
    b["min_tokens"], b["median_tokens"], b["max_tokens"] = triple(0, 60000, 0)
    b["min_tool_calls"], b["median_tool_calls"], b["max_tool_calls"] = triple(0, 50, 0)
    b["min_execution_time"], b["median_execution_time"], b["max_execution_time"] = triple(0, 2000, 2)
    b["min_cost"], b["median_cost"], b["max_cost"] = triple(0, 1, 4)
    b["median_iterations"] = rng.choice(["1", "1.5", "2", "3", "3.5", "5", "8"])
    return b


def random_submission(rng, b):
    def near(lo, hi, places, span):
        lo, hi = D(lo), D(hi)
        pick = rng.random()
        if pick < 0.1:
            return str(lo)
        if pick < 0.2:
            return str(hi)
        return dstr(rng, max(D(0), lo - span), hi + span, places)
    return {
        "total_tokens": int(D(near(b["min_tokens"], b["max_tokens"], 0, 2000))),
        "tool_calls": int(D(near(b["min_tool_calls"], b["max_tool_calls"], 0, 3))),
        "iterations": rng.randint(1, 12),
        "execution_time": "0" if rng.random() < 0.1 else near(b["min_execution_time"], b["max_execution_time"], 3, 50),
        "estimated_cost": "0" if rng.random() < 0.1 else near(b["min_cost"], b["max_cost"], 6, D("0.05")),
        "criteria_passed": 0, "criteria_total": 0,
    }


def arena_case(s, b, category, difficulty):
    case = {"submission": s, "baseline": b, "category": category, "difficulty": difficulty}
    if arena_invalid(s, b, category):
        case["error"] = True
    else:
        case["result"] = overall(s, b, category, difficulty)
    return case


BASE = {
    "min_tokens": "1000", "median_tokens": "5000", "max_tokens": "11000",
    "min_tool_calls": "2", "median_tool_calls": "6", "max_tool_calls": "12",
    "min_execution_time": "60", "median_execution_time": "300", "max_execution_time": "1800",
    "min_cost": "0.01", "median_cost": "0.05", "max_cost": "0.20", "median_iterations": "3",
}


def sub(**kw):
    s = {"total_tokens": 6000, "tool_calls": 7, "iterations": 2, "execution_time": "600",
         "estimated_cost": "0.08", "criteria_passed": 3, "criteria_total": 4}
    s.update(kw)
    return s


def base(**kw):
    b = dict(BASE)
    b.update(kw)
    return b


def boundary_arena_cases():
    cases = []
    for t in [0, 999, 1000, 1001, 6000, 10999, 11000, 11001, 10**9]:
        cases.append(arena_case(sub(total_tokens=t), base(), "", ""))
    for c in [0, 1, 2, 3, 7, 11, 12, 13]:
        cases.append(arena_case(sub(tool_calls=c), base(), "", ""))
    for it in [1, 2, 3, 4, 5, 6, 7, 8, 10, 100]:
        for med in ["1", "2.5", "3", "6"]:
            cases.append(arena_case(sub(iterations=it), base(median_iterations=med), "", ""))
    for t in ["0", "0.001", "59.999", "60", "60.001", "600", "1799.999", "1800", "1800.001", "1000000"]:
        cases.append(arena_case(sub(execution_time=t), base(), "", ""))
    for c in ["0", "0.005", "0.01", "0.010001", "0.1", "0.199999", "0.2", "5"]:
        cases.append(arena_case(sub(estimated_cost=c), base(), "", ""))
    for p, t in [(0, 0), (0, 1), (1, 1), (1, 3), (2, 3), (0, 7), (5, 7)]:
        cases.append(arena_case(sub(criteria_passed=p, criteria_total=t), base(), "", ""))
    # min == max baselines: every value is either <= min or >= max, never a division
    mm = base(min_tokens="5000", median_tokens="5000", max_tokens="5000",
              min_tool_calls="4", median_tool_calls="4", max_tool_calls="4",
              min_execution_time="100", median_execution_time="100", max_execution_time="100",
              min_cost="0.05", median_cost="0.05", max_cost="0.05")
    for t, c, tm, co in [(4999, 3, "99", "0.04"), (5000, 4, "100", "0.05"), (5001, 5, "101", "0.06")]:
        cases.append(arena_case(sub(total_tokens=t, tool_calls=c, execution_time=tm, estimated_cost=co), mm, "", ""))
    zero = base(min_tokens="0", median_tokens="0", max_tokens="0", min_tool_calls="0",
                median_tool_calls="0", max_tool_calls="0", min_execution_time="0",
                median_execution_time="0", max_execution_time="0", min_cost="0", median_cost="0",
                max_cost="0", median_iterations="1")
    cases.append(arena_case(sub(total_tokens=0, tool_calls=0, iterations=1, execution_time="1",
                                estimated_cost="1", criteria_passed=0, criteria_total=0), zero, "", ""))
    perfect = sub(total_tokens=10, tool_calls=0, iterations=1, execution_time="1",
                  estimated_cost="0.001", criteria_passed=4, criteria_total=4)
    for cat in [""] + sorted(CATEGORY_WEIGHTS) + ["unknown_category"]:
        for diff in ["", "beginner", "intermediate", "advanced", "expert"]:
            cases.append(arena_case(sub(), base(), cat, diff))
            cases.append(arena_case(perfect, base(), cat, diff))
    # invalid submissions and baselines
    for bad in [sub(total_tokens=-1), sub(tool_calls=-1), sub(iterations=0), sub(iterations=-3),
                sub(execution_time="-0.1"), sub(estimated_cost="-1"), sub(criteria_passed=5, criteria_total=4),
                sub(criteria_passed=-1, criteria_total=4), sub(criteria_total=-1, criteria_passed=-2)]:
        cases.append(arena_case(bad, base(), "", ""))
    for badb in [base(min_tokens="-1"), base(min_tokens="12000"), base(median_cost="0.5"),
                 base(median_iterations="0.5"), base(min_execution_time="2000")]:
        cases.append(arena_case(sub(), badb, "", ""))
    return cases


def random_arena_cases(rng, n):
    cats = [""] + sorted(CATEGORY_WEIGHTS)
    diffs = ["", "beginner", "intermediate", "advanced", "unknown"]
    out = []
    for _ in range(n):
        b = random_baseline(rng)
        s = random_submission(rng, b)
        total = rng.randint(0, 10)
        s["criteria_total"], s["criteria_passed"] = total, rng.randint(0, total)
        out.append(arena_case(s, b, rng.choice(cats), rng.choice(diffs)))
    return out


def baseline_of(subs):
    if len(subs) < 5:
        return None  # the fallback
    tokens = [D(s["total_tokens"]) for s in subs]
    calls = [D(s["tool_calls"]) for s in subs]
    times = [D(s["execution_time"]) for s in subs if D(s["execution_time"]) > 0]
    costs = [D(s["estimated_cost"]) for s in subs if D(s["estimated_cost"]) > 0]
    iters = [D(s["iterations"]) for s in subs]
    q = statistics.quantiles(tokens, n=4)
    return {
        "submission_count": len(subs),
        "median_tokens": fmt(statistics.median(tokens)), "min_tokens": fmt(min(tokens)),
        "max_tokens": fmt(max(tokens)), "q25_tokens": fmt(q[0]), "q75_tokens": fmt(q[2]),
        "median_tool_calls": fmt(statistics.median(calls)), "min_tool_calls": fmt(min(calls)),
        "max_tool_calls": fmt(max(calls)),
        "median_execution_time": fmt(statistics.median(times) if times else D(300)),
        "min_execution_time": fmt(min(times) if times else D(60)),
        "max_execution_time": fmt(max(times) if times else D(1800)),
        "median_cost": fmt(statistics.median(costs) if costs else D("0.05")),
        "min_cost": fmt(min(costs) if costs else D("0.01")),
        "max_cost": fmt(max(costs) if costs else D("0.20")),
        "median_iterations": fmt(statistics.median(iters)),
    }


def baseline_cases(rng):
    out = []
    sizes = [0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 17, 50, 101]
    for i, n in enumerate(sizes * 3):
        subs = []
        for _ in range(n):
            subs.append({
                "total_tokens": rng.randint(0, 80000), "tool_calls": rng.randint(0, 60),
                "iterations": rng.randint(1, 9),
                "execution_time": "0" if rng.random() < (0.3 if i % 3 else 1.0) else dstr(rng, 0, 3000, 3),
                "estimated_cost": "0" if rng.random() < (0.3 if i % 3 != 1 else 1.0) else dstr(rng, 0, 2, 6),
                "criteria_passed": 0, "criteria_total": 0,
            })
        out.append({"submissions": subs, "baseline": baseline_of(subs)})
    return out


def percentile(score, scores):
    if not scores:
        return D(50)
    pos = sorted(scores).index(score)
    return (D(pos) * 100 / D(len(scores))).quantize(Q1, rounding=decimal.ROUND_HALF_UP)


def rank_cases(rng):
    out = []
    fixed = [[], ["50"], ["90", "80", "80", "70"], ["10", "10", "10"], ["1", "2", "3", "4", "5", "6", "7", "8"],
             ["100", "0", "100", "0", "50.5", "50.50"]]
    lists = [[D(x) for x in f] for f in fixed]
    for _ in range(60):
        n = rng.randint(1, 40)
        lists.append([D(rng.randint(0, 40)) / 4 if rng.random() < 0.5 else D(dstr(rng, 0, 100, 2)) for _ in range(n)])
    for scores in lists:
        order = sorted(range(len(scores)), key=lambda i: scores[i], reverse=True)  # stable
        ranks = [0] * len(scores)
        cat = [0] * len(scores)
        current = 1
        prev = None
        for pos, i in enumerate(order):
            if pos > 0 and scores[i] == scores[prev]:
                ranks[i] = ranks[prev]
            else:
                ranks[i] = current
            current = pos + 2
            cat[i] = pos + 1
            prev = i
        case = {"scores": [str(s) for s in scores], "ranks": ranks, "category_ranks": cat,
                "percentiles": [str(percentile(s, scores)) for s in scores]}
        if len(scores) < 3:
            lo, hi = D(0), D(100)
        else:
            mean = q18(statistics.mean(scores))
            sd = q18(statistics.stdev(scores))
            root = q18(D(len(scores)).sqrt())
            t = D("2.776") if len(scores) < 30 else D("1.96")
            margin = q18(t * q18(sd / root))
            lo, hi = max(D(0), mean - margin), min(HUNDRED, mean + margin)
        case["ci"] = [fmt(lo), fmt(hi)]
        out.append(case)
    return out


def outlier_cases(rng):
    out = []
    for n in [1, 2, 5, 12, 30]:
        for _ in range(4):
            subs = []
            for _ in range(n):
                subs.append({
                    "total_tokens": rng.choice([rng.randint(0, 500), rng.randint(500, 20000)]),
                    "tool_calls": rng.choice([0, 1, 1, 2, 7]),
                    "execution_time": rng.choice(["0", "4.999", "5", dstr(rng, 0, 100, 2)]),
                    "iterations": 1, "estimated_cost": "0", "criteria_passed": 0, "criteria_total": 0,
                })
            med = statistics.median([D(s["total_tokens"]) for s in subs])
            thr = med * D("0.1")
            found = []
            for i, s in enumerate(subs):
                flags = []
                if D(s["total_tokens"]) < thr:
                    flags.append("extremely_efficient_tokens")
                if D(s["execution_time"]) < 5:
                    flags.append("extremely_fast")
                if s["tool_calls"] == 1:
                    flags.append("minimal_tool_usage")
                if len(flags) >= 2:
                    found.append({"index": i, "flags": flags})
            out.append({"submissions": subs, "outliers": found})
    return out


# ----------------------------------------------------------------------------- gas

BETA = D("3.2")
GAS_W = [D("0.5"), D("0.15"), D("0.15"), D("0.10"), D("0.10")]


def outcome(estimate, minimum):
    e, m = D(estimate), D(minimum)
    if e < m:
        return 0, D(0)
    return 1, q18((e - m) / m)


def performance(mem):
    n = D(len(mem))
    inc = q18(D(sum(s[0] for s in mem)) / n)
    over = q18(sum((s[1] for s in mem), D(0)) / n)
    live = q18(D(sum(s[2] for s in mem)) / n)
    return inc, over, live


def utility(x, defined=True):
    if not defined:
        return D(0)
    return min(D(1), max(D(0), q18((-BETA * x).exp())))


def cov(mean, std):
    if std == 0:
        return D(0), True
    if mean == 0:
        return D(0), False
    return q18(std / mean), True


def score_gas(history, liveliness):
    inc = [D(h["inclusion_rate"]) for h in history]
    over = [D(h["avg_overpayment"]) for h in history]
    im, isd = q18(statistics.mean(inc)), q18(statistics.pstdev(inc))
    om, osd = q18(statistics.mean(over)), q18(statistics.pstdev(over))
    icov, iok = cov(im, isd)
    ocov, ook = cov(om, osd)
    u = [min(D(1), max(D(0), im)), utility(icov, iok), utility(om), utility(ocov, ook),
         min(D(1), max(D(0), D(liveliness)))]
    total = q18(sum((w * x for w, x in zip(GAS_W, u)), D(0)))
    return {
        "score": fmt(total), "inclusion_mean": fmt(im), "inclusion_std": fmt(isd), "inclusion_cov": fmt(icov),
        "overpayment_mean": fmt(om), "overpayment_std": fmt(osd), "overpayment_cov": fmt(ocov),
        "utilities": [fmt(x) for x in u],
    }


def simulate(rng, windows, skill, fresh_rate, block_seconds):
    """Close `windows` block windows; return the history points (time, rates) and the liveliness."""
    mem = []
    history = []
    last = None
    for w in range(windows):
        truth = D(rng.randint(1, 200000)).scaleb(-3)  # gwei with 3 places
        fresh = rng.random() < fresh_rate or last is None
        if fresh:
            factor = D(rng.randint(int(1000 * (1 - skill)), int(1000 * (1 + 2 * skill)))).scaleb(-3)
            last = (truth * factor).quantize(D("1e-9"))
        inc, over = outcome(last, truth)
        mem.append((inc, over, 1 if fresh else 0))
        if len(mem) > 10:
            mem.pop(0)
        if len(mem) == 10:
            i, o, live = performance(mem)
            history.append({"time": w * block_seconds, "inclusion_rate": fmt(i), "avg_overpayment": fmt(o)})
    return history, live


def gas_cases(rng):
    outcomes = []
    for e, m in [("0", "1"), ("0.999999999", "1"), ("1", "1"), ("1.5", "1"), ("3", "2"), ("1", "3"),
                 ("100", "0.000000001"), ("12.345678901", "12.345678900")]:
        inc, over = outcome(e, m)
        outcomes.append({"estimate": e, "min_price": m, "included": inc == 1, "overpayment": fmt(over)})
    for _ in range(40):
        m = dstr(rng, D("0.001"), 500, 9)
        e = dstr(rng, 0, 1000, 9)
        inc, over = outcome(e, m)
        outcomes.append({"estimate": e, "min_price": m, "included": inc == 1, "overpayment": fmt(over)})
    memories = []
    for n in [1, 3, 7, 10]:
        for _ in range(5):
            slots = [(rng.randint(0, 1), q18(D(dstr(rng, 0, 3, 6)) / D(7)), rng.randint(0, 1)) for _ in range(n)]
            slots = [(i, o if i else D(0), f) for i, o, f in slots]
            inc, over, live = performance(slots)
            memories.append({"slots": [{"included": s[0] == 1, "overpayment": fmt(s[1]), "fresh": s[2] == 1} for s in slots],
                             "inclusion_rate": fmt(inc), "avg_overpayment": fmt(over), "liveliness": fmt(live)})
    scores = []
    fixed = [
        ([("1", "0")], "1"),
        ([("0", "0")], "0"),
        ([("0.5", "0.5")], "0.5"),
        ([("1", "0"), ("1", "0"), ("1", "0")], "1"),
        ([("0", "0"), ("0", "0")], "0"),
        ([("0.9", "0.1"), ("1", "0.2"), ("0.8", "0")], "0.9"),
        ([("1", "0.5")], "1"),
        ([("1", "100")], "1"),
        ([("0.1", "0"), ("0.9", "0")], "0.3"),
    ]
    for pts, live in fixed:
        hist = [{"time": i * 12, "inclusion_rate": a, "avg_overpayment": b} for i, (a, b) in enumerate(pts)]
        scores.append({"history": hist, "liveliness": live, **score_gas(hist, live)})
    for _ in range(80):
        block = rng.choice([1, 2, 12])
        hist, live = simulate(rng, rng.randint(10, 80), rng.random() * 0.6, 0.5 + rng.random() / 2, block)
        horizon = [h for h in hist if h["time"] > hist[-1]["time"] - 60]
        scores.append({"history": horizon, "liveliness": fmt(live), **score_gas(horizon, fmt(live))})
    return {"outcomes": outcomes, "memories": memories, "scores": scores}


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "x/scoring/testdata"
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random(20261122)
    files = {
        "golden_stats.json": {"cases": stats_cases(rng)},
        "golden_arena.json": {
            "scores": boundary_arena_cases() + random_arena_cases(rng, 400),
            "baselines": baseline_cases(rng),
            "rankings": rank_cases(rng),
            "outliers": outlier_cases(rng),
        },
        "golden_gas.json": gas_cases(rng),
    }
    for name, body in files.items():
        with open(os.path.join(outdir, name), "w") as f:
            json.dump(body, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
