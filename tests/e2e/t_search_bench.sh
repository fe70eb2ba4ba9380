# SPDX-License-Identifier: GPL-2.0-or-later
# The search benchmark (bench/search.sh, bench/search/README.md) with this
# tuner: the metric code's self-test passes; `bench/search.sh --short` runs
# every strategy of its list and prints a row for each; every trace has
# exactly its budget's evaluations, each the seeded evaluator's value;
# tuner's strategies (`tuner propose`) never propose a configuration twice
# in a trace; and exhaustive search over the whole space without noise
# finds the true front exactly (ratio 1, nothing missed), on the
# single-layout dataset and on the layout-mean one (bench/search/layouts).
. "$ROOT/tests/e2e/lib.sh"

py=/usr/bin/python3
search=$ROOT/bench/search
for f in oracle.csv oracle.json; do
	[ -f "$search/$f" ] ||
		fail "bench/search/$f is missing: the oracle's dataset is not committed (bench/search/README.md, \"The dataset\")"
done

"$py" "$search/test_oracle.py" >"$TMPDIR/selftest" 2>&1 ||
	fail "the metric self-test (bench/search/test_oracle.py): $(tail -n 20 "$TMPDIR/selftest")"

out=$TMPDIR/short.out
start=$(date +%s)
"$ROOT/bench/search.sh" "$TUNER" --short --keep "$TMPDIR/short" >"$out" 2>&1 ||
	fail "bench/search.sh --short: $(tail -n 20 "$out")"
cat "$out"
echo "bench/search.sh --short: $(($(date +%s) - start)) s"

grep -q '^throughput is MODELLED' "$out" || fail "no word that throughput is modelled"
grep -q '^true front: [0-9]* distinct points' "$out" || fail "no true front line"
md_tables_ok "$out"
for s in random exhaustive optuna-nsga2 tuner-nsga2 tuner-surrogate tuner-surrogate-race; do
	grep -Eq "^\| $s \| 115 \(10%\) \| [0-9.]+( \([0-9]+-[0-9]+\))? \| [01]\.[0-9]{3} \(" "$out" ||
		fail "no row of $s at budget 115"
done
# The side-by-side table: the best peer against the racing surrogate.
grep -Eq '^\| 115 \(10%\) \| (random|exhaustive|optuna-nsga2) [01]\.[0-9]{3} \| [01]\.[0-9]{3} \| [-+][01]\.[0-9]{3} \([-+][01]\.[0-9]{3} to [-+][01]\.[0-9]{3}\) \| [0-9]+/[0-9]+, [0-9]+/[0-9]+ \|$' "$out" ||
	fail "no margin row (best peer against the racing surrogate) at budget 115"

# The traces: 6 strategies x 3 seeds, each of exactly 115 evaluations,
# each value the evaluator's; ratios in [0, 1]; no
# configuration twice from tuner.
"$py" -B - "$TMPDIR/short" "$search" <<'PY' || fail "traces"
import glob, json, os, sys
sys.path.insert(0, sys.argv[2])
import oracle
o = oracle.load()
files = sorted(glob.glob(os.path.join(sys.argv[1], "*-b*-s*.csv")))
assert len(files) == 18, "%d traces, want 18: %s" % (len(files), files)
for path in files:
    with open(path) as f:
        head = json.loads(f.readline()[2:])
        assert f.readline() == "n,index,k,throughput,size,hv_ratio\n", path
        rows = [line.rstrip("\n").split(",") for line in f]
    name = os.path.basename(path)
    assert head["error"] is None, "%s: %s" % (name, head["error"])
    # Every strategy spends its budget exactly (the space is larger).
    assert head["budget"] == 115 and len(rows) == 115, "%s: %d evaluations" % (name, len(rows))
    seen = {}
    for n, (i, index, k, t, s, r) in enumerate(rows, start=1):
        index, k = int(index), int(k)
        assert int(i) == n and k == seen.get(index, 0), "%s row %d: n or k" % (name, n)
        seen[index] = k + 1
        assert (float(t), float(s)) == o.measure(head["seed"], index, k), "%s row %d: value" % (name, n)
        assert 0 <= float(r) <= 1, "%s row %d: ratio %s" % (name, n, r)
    # Only with --race may tuner measure a configuration again.
    if head["strategy"].startswith("tuner-") and not head["strategy"].endswith("-race"):
        twice = [i for i, c in seen.items() if c > 1]
        assert not twice, "%s: configurations proposed twice: %s" % (name, twice)
    if head["strategy"] == "exhaustive":
        assert [int(r[1]) for r in rows] == list(range(115)), name
print("traces: %d, of 115 evaluations each" % len(files))
PY

# bench/search/traces.py on the kept run: exhaustive order's first 115
# configurations are all -O2 (opt is the first dimension), random's share
# of -Os is near a third; a run paired with itself changes nothing; the
# seeds below a ratio of 2 are every seed.
tr() { "$py" -B "$search/traces.py" "$@"; }
tr share "$TMPDIR/short" --dim opt --value=-Os >"$TMPDIR/share" 2>&1 || fail "traces.py share: $(cat "$TMPDIR/share")"
cat "$TMPDIR/share"
grep -q '^| exhaustive | 115 | 0.00 | 0.00 |$' "$TMPDIR/share" || fail "traces.py share: exhaustive order's -Os share"
grep -Eq '^\| random \| 115 \| 0\.(2[0-9]|3[0-9]|4[0-6]) \|' "$TMPDIR/share" || fail "traces.py share: random's -Os share"
tr paired "$TMPDIR/short" "$TMPDIR/short" --strategy tuner-surrogate >"$TMPDIR/paired" 2>&1 ||
	fail "traces.py paired: $(cat "$TMPDIR/paired")"
grep -q '^| 115 | 3 | \([01]\.[0-9]*\) | \1 | +0.0000 (+0.0000 to +0.0000) | 0 | 0 |$' "$TMPDIR/paired" ||
	fail "traces.py paired: a run against itself: $(cat "$TMPDIR/paired")"
tr low "$TMPDIR/short" --budget 115 --below 2 >"$TMPDIR/low" 2>&1 || fail "traces.py low: $(cat "$TMPDIR/low")"
grep -q ': 3 of 3 seeds ended below 2; ' "$TMPDIR/low" || fail "traces.py low: $(cat "$TMPDIR/low")"
tr share "$TMPDIR/short" --dim nosuch --value x >"$TMPDIR/bad" 2>&1 && fail "traces.py share accepted a dimension that is not there"
grep -q "no dimension 'nosuch'" "$TMPDIR/bad" || fail "traces.py: the error for a missing dimension: $(cat "$TMPDIR/bad")"

# exact NAME [--data DIR]: exhaustive search over the whole space of a
# dataset (the default one, or DIR), noise-free, finds its true front
# exactly: 1152 evaluations, ratio exactly 1, nothing missed. Its output
# stays in $TMPDIR/NAME.out.
exact() {
	local name=$1
	shift
	"$ROOT/bench/search.sh" "$TUNER" "$@" --budgets 100 --seeds 1 --strategies exhaustive \
		--noise-scale 0 --keep "$TMPDIR/$name" >"$TMPDIR/$name.out" 2>&1 ||
		fail "$name: exhaustive at 100%: $(tail -n 20 "$TMPDIR/$name.out")"
	"$py" - "$TMPDIR/$name/summary.json" "$name" <<'PY' ||
import json, sys
t = json.load(open(sys.argv[1]))["traces"]
assert len(t) == 1 and t[0]["evaluations"] == 1152, t
assert t[0]["final"] == 1.0 and t[0]["missed"] == 0, "ratio %r, missed %r" % (t[0]["final"], t[0]["missed"])
print("%s: exhaustive, 1152 evaluations, noise-free: ratio exactly 1, 0 missed" % sys.argv[2])
PY
		fail "$name: exhaustive at 100%, noise-free: $(cat "$TMPDIR/$name.out")"
}
exact all

# The layout-mean dataset (bench/search/layouts, README.md "The layout-mean
# dataset"): it loads, says what its truth is, and exhaustive search over
# it noise-free finds its true front exactly.
[ -f "$search/layouts/oracle.csv" ] && [ -f "$search/layouts/oracle.json" ] ||
	fail "bench/search/layouts is not committed"
exact layouts --data "$search/layouts"
grep -q 'each the mean of its [0-9]* layout seeds' "$TMPDIR/layouts.out" ||
	fail "the layout-mean dataset: no word of its truth: $(head -n 5 "$TMPDIR/layouts.out")"
