# SPDX-License-Identifier: GPL-2.0-or-later
# tuner report: a small real study (five configurations, one of which fails
# to build, two layout seeds, three runs each) run, then written as
# report.html: self-contained (nothing fetched), one point per measured
# configuration, the front as pareto.json has it, the failure and its log,
# the provenance pareto.json records, the effects of its one dimension and
# no regret (one target). Then two targets with a sign flip
# (two_targets.sh): a front per target, the effects bars (a bar per value
# and target, the flip called out), the regret heat map (a cell per
# configuration and target, each target's best and the common default
# marked as tuner defaults finds them) and its verdict. Debian's
# chromium (make deps installs it; TUNER_NEED_CHROMIUM=0 skips) renders each page
# headless: a screenshot (kept in $TUNER_SCREENSHOT_DIR when set), and the
# rendered DOM holds the same points, bars and cells.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
# speed = 100 LEVEL + layout seed + run; size by level: LEVEL=2 (200,
# 3000 bytes) is dominated by LEVEL=3 (300, 2000 bytes); LEVEL=5 fails
# to build.
cat >"$repo/study.yaml" <<'EOF2'
study: report
source: {path: prog}
space:
  level: ["-DLEVEL=1", "-DLEVEL=2", "-DLEVEL=3", "-DLEVEL=4", "-DLEVEL=5 -DX='<&>'"]
build:
  command: |
    l=$(echo "$TUNER_FLAGS" | sed "s/^-DLEVEL=\([0-9]\).*/\1/")
    if [ "$l" = 5 ]; then echo "level 5: no such level <x>" >&2; exit 1; fi
    echo "$l" > "$TUNER_OUT/art"; echo "$TUNER_LAYOUT_SEED" > "$TUNER_OUT/seed"
  artifact: art
size:
  of: artifact
  measure: command
  command: 'case $(cat "$TUNER_ARTIFACT") in 1) s=1000;; 2) s=3000;; 3) s=2000;; *) s=4000;; esac; echo "size: $s"'
measure:
  command: 'l=$(cat "$TUNER_ARTIFACT"); s=$(cat "$TUNER_OUT/seed"); echo $((l * 100 + s + TUNER_RUN))'
  same_code: separate
  parser: number
  repeats: 3
layout: {samples: 2}
objectives:
  - {name: speed, unit: ops/s, goal: max}
  - {name: size, unit: bytes, goal: min}
EOF2
git -C "$repo" add -A && git -C "$repo" commit -q -m study
res=$TMPDIR/res
st=0
"$TUNER" run -q --all --results "$res" "$repo/study.yaml" >"$TMPDIR/run.out" 2>&1 || st=$?
[ $st -eq 3 ] || fail "run: exit $st, want 3 (one failed build): $(cat "$TMPDIR/run.out")"

# pareto.json's provenance: compiler, host, date.
python3 - "$res/pareto.json" <<'EOF2' || fail "pareto.json provenance"
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["compiler"] and isinstance(d["compiler"], str), d.get("compiler")
assert d["host"]["name"] and d["host"]["machine"], d.get("host")
assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", d["date"]), d.get("date")
EOF2

# No results yet: bad input, says so.
st=0
"$TUNER" report --results "$TMPDIR/none" "$repo/study.yaml" >/dev/null 2>"$TMPDIR/err" || st=$?
[ $st -eq 2 ] || fail "report without results: exit $st, want 2"
grep -q 'run the study first' "$TMPDIR/err" || fail "report without results: $(cat "$TMPDIR/err")"

"$TUNER" report "$repo/study.yaml" --results "$res" >"$TMPDIR/out" || fail "report failed"
page=$res/report.html
[ "$(cat "$TMPDIR/out")" = "$page" ] || fail "report printed '$(cat "$TMPDIR/out")', not $page"
"$TUNER" report -o "$TMPDIR/other.html" --results "$res" "$repo/study.yaml" >/dev/null ||
	fail "report -o failed"
cmp -s "$page" "$TMPDIR/other.html" || fail "-o wrote another page"

# Self-contained: nothing fetched.
for bad in 'http://' 'https://' '<script src' '<link' '<img' '@import' 'url('; do
	! grep -qiF "$bad" "$page" || fail "report.html has '$bad'"
done

# The counts the page must hold, from pareto.json: a point per configuration
# with both values, the front's members, the failures.
read -r nplot nfront nfailed <<<"$(python3 - "$res/pareto.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
plot = [c for c in d["configs"] if all(v["value"] is not None for v in c["objectives"].values())]
print(len(plot), len(d["front"]), sum(c["status"] not in ("ok", "incomplete") for c in d["configs"]))
EOF2
)"
[ "$nplot" -eq 4 ] && [ "$nfront" -eq 3 ] && [ "$nfailed" -eq 1 ] ||
	fail "pareto.json: $nplot plotted, $nfront on the front, $nfailed failed; want 4, 3, 1"
[ "$(grep -o 'data-config="' "$page" | wc -l)" -eq "$nplot" ] ||
	fail "points: $(grep -o 'data-config="' "$page" | wc -l), want $nplot"
[ "$(grep -o 'class="point front' "$page" | wc -l)" -eq "$nfront" ] ||
	fail "front points: $(grep -o 'class="point front' "$page" | wc -l), want $nfront"
# Every plotted configuration is a point, by id.
python3 - "$res/pareto.json" "$page" <<'EOF2' || fail "point ids"
import json, re, sys
d = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read()
want = sorted(c["config"] for c in d["configs"] if c["status"] == "ok")
got = sorted(re.findall(r'data-config="([0-9a-f]{16})"', page))
assert got == want, (got, want)
front = sorted(c["config"] for c in d["front"])
got = sorted(re.findall(r'class="point front[^"]*" data-config="([0-9a-f]{16})"', page))
assert got == front, (got, front)
EOF2
# The failure: its flags escaped, its status, its log and the log's last line.
grep -q '<td class="flags"><span class="fl">-DLEVEL=5</span> <span class="fl">-DX=&#39;&lt;&amp;&gt;&#39;</span></td>' "$page" ||
	fail "the failed configuration's flags, escaped"
grep -q '/build.log</code>' "$page" || fail "no build.log named"
grep -q 'level 5: no such level &lt;x&gt;' "$page" || fail "the build log's last line"
# Two layout seeds: error bars and the layout spread column.
grep -q 'class="err"' "$page" || fail "no error bars"
grep -q '<br>layout sd</th>' "$page" || fail "no layout spread column"
# The effects of level: -DLEVEL=2..4 against -DLEVEL=1 (5 failed: no pairs),
# a bar each per objective; no regret with one target.
[ "$(grep -o 'data-key="speed:report:level=' "$page" | wc -l)" -eq 3 ] ||
	fail "speed bars: $(grep -o 'data-key="speed:[^"]*"' "$page")"
[ "$(grep -o 'data-key="size:report:level=' "$page" | wc -l)" -eq 3 ] || fail "size bars"
grep -q 'No bar, as no two configurations with values differ in the value alone (no pairs): level <code>-DLEVEL=5 -DX=&#39;&lt;&amp;&gt;&#39;</code>' "$page" ||
	fail "the value without pairs"
grep -q '<section id="regret">' "$page" && grep -q 'The regret takes two targets or more' "$page" ||
	fail "the regret section with one target"
grep -q '<dt>compiler</dt><dd>[^<]' "$page" || fail "no compiler in the provenance"

# Headless, on a profile of its own; a fresh HOME (git_test_env) keeps it
# out of the user's. chrome PAGE ARGS...
chrome() {
	local p=$1
	shift
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$TMPDIR/chromium" "$@" "file://$p" 2>>"$TMPDIR/chromium.log"
}
# shoot PAGE PNG HEIGHT: a screenshot, kept in $TUNER_SCREENSHOT_DIR when set.
shoot() {
	chrome "$1" --screenshot="$2" --window-size=1280,"$3" >/dev/null ||
		fail "chromium screenshot: $(tail -n 5 "$TMPDIR/chromium.log")"
	[ -s "$2" ] || fail "no screenshot"
	head -c 8 "$2" | od -An -c | grep -q 'P   N   G' || fail "the screenshot is not a PNG"
	if [ -n "${TUNER_SCREENSHOT_DIR:-}" ]; then
		mkdir -p "$TUNER_SCREENSHOT_DIR" && cp "$2" "$TUNER_SCREENSHOT_DIR/"
	fi
}
# make test installs chromium (scripts/install-deps.sh); a check without
# it fails rather than pass unseen, unless TUNER_NEED_CHROMIUM=0.
chromium=1
if [ ! -x /usr/bin/chromium ]; then
	[ "${TUNER_NEED_CHROMIUM:-1}" = 0 ] || fail "no /usr/bin/chromium (make deps installs it; TUNER_NEED_CHROMIUM=0 skips)"
	echo "skipped: no chromium (TUNER_NEED_CHROMIUM=0)"
	chromium=0
fi
if [ $chromium = 1 ]; then
	shoot "$page" "$TMPDIR/report.png" 2400
	chrome "$page" --dump-dom >"$TMPDIR/dom.html" ||
		fail "chromium --dump-dom: $(tail -n 5 "$TMPDIR/chromium.log")"
	python3 - "$TMPDIR/dom.html" "$nplot" "$nfront" <<'EOF2' || fail "the rendered DOM"
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    points = front = svgs = 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "svg":
            self.svgs += 1
        if tag == "g" and "point" in cls and a.get("data-config"):
            self.points += 1
            self.front += "front" in cls
p = P()
p.feed(open(sys.argv[1]).read())
want = (int(sys.argv[2]), int(sys.argv[3]))
assert (p.points, p.front) == want, ((p.points, p.front), want)
assert p.svgs >= 1
EOF2
	echo "ok: $nplot points, $nfront on the front; screenshot $TMPDIR/report.png"
fi

# Two targets (two_targets.sh, in a scratch directory of their own).
one=$TMPDIR
TMPDIR=$one/two
mkdir -p "$TMPDIR"
. "$ROOT/tests/e2e/two_targets.sh"
two=$TMPDIR/two.html
"$TUNER" report --results "$RA" --results "$RB" "$A" "$B" -o "$two" >"$TMPDIR/out" 2>"$TMPDIR/err" ||
	fail "report of two targets: $(cat "$TMPDIR/err")"
[ "$(cat "$TMPDIR/out")" = "$two" ] || fail "report printed '$(cat "$TMPDIR/out")'"
"$TUNER" report --results "$RA" --results "$RB" "$A" "$B" >"$TMPDIR/out" ||
	fail "report of two targets, default path"
[ "$(cat "$TMPDIR/out")" = "$RA/report-targets.html" ] || fail "default path '$(cat "$TMPDIR/out")'"
for bad in 'http://' 'https://' '<script src' '<link' '<img' '@import' 'url('; do
	! grep -qiF "$bad" "$two" || fail "the two targets' page has '$bad'"
done
# Refused: --results not one per study, an objective a target lacks.
st=0
"$TUNER" report --results "$RA" "$A" "$B" >/dev/null 2>"$TMPDIR/err" || st=$?
[ $st -eq 2 ] && grep -q '1 --results for 2 studies' "$TMPDIR/err" || fail "one --results for two: $st"
st=0
"$TUNER" report --objective latency --results "$RA" --results "$RB" "$A" "$B" >/dev/null \
	2>"$TMPDIR/err" || st=$?
[ $st -eq 2 ] && grep -q "has no objective 'latency'" "$TMPDIR/err" || fail "--objective latency: $st"
# What the page must hold, from tuner effects and tuner defaults' JSON.
"$TUNER" effects --format json --results "$RA" --results "$RB" "$A" "$B" >"$TMPDIR/effects.json"
"$TUNER" defaults --format json --results "$RA" --results "$RB" "$A" "$B" >"$TMPDIR/defaults.json"
# check_two PAGE: the page (as written, or as Chromium rendered it) holds a
# front per target with a point per configuration with values, a bar per
# value and target per objective (data-key OBJECTIVE:TARGET:DIM=VALUE),
# the reorder flip called out, a heat-map cell per configuration and
# target, each target's best cell and the common default's row where tuner
# defaults has them, and its verdict.
check_two() {
	python3 - "$1" "$TMPDIR/effects.json" "$TMPDIR/defaults.json" "$RA" "$RB" <<'EOF2'
import html, json, sys
from html.parser import HTMLParser
page, ej, dj = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
names = [t["name"] for t in dj["targets"]]
assert names == ["bcm53xx", "mt7621"], names
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.section, self.figure, self.points, self.keys = [], None, {}, []
        self.heat = self.body = self.row = None
        self.rows, self.text, self.group = [], [], None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "section":
            self.section.append(a.get("id"))
        if tag == "figure":
            self.figure = a.get("data-target")
            self.points[self.figure] = 0
        if tag == "g" and "point" in cls and self.figure:
            self.points[self.figure] += 1
        if tag == "g" and "bar" in cls and self.section[-1:] == ["effects"]:
            self.keys.append((a["data-key"], cls))
        if tag == "text" and "group" in cls:
            self.group = ["flip" in cls, ""]
        if tag == "table" and "heatmap" in cls:
            self.heat = True
        if self.heat and tag == "tbody":
            self.body = True
        if self.body and tag == "tr":
            self.row = {"cls": cls, "label": "", "cells": []}
            self.rows.append(self.row)
        if self.row is not None and tag == "td":
            self.row["cells"].append(cls)
        if self.row is not None and tag == "th":
            self.th = True
    def handle_endtag(self, tag):
        if tag == "section":
            self.section.pop()
        if tag == "figure":
            self.figure = None
        if tag == "text" and self.group:
            self.text.append(tuple(self.group))
            self.group = None
        if tag == "tbody":
            self.body = self.heat = None
        if tag == "tr":
            self.row = None
        if tag == "th":
            self.th = False
    th = False
    def handle_data(self, d):
        if self.group:
            self.group[1] += d
        if self.row is not None and self.th:
            self.row["label"] += d
p = P()
src = open(page).read()
p.feed(src)
# A front per target, a point per configuration with values.
for name, res in zip(names, sys.argv[4:6]):
    d = json.load(open(res + "/pareto.json"))
    want = sum(all(v["value"] is not None for v in c["objectives"].values()) for c in d["configs"])
    assert p.points.get(name) == want, (name, p.points, want)
# A bar per value and target, per objective.
for o in ej["objectives"]:
    rows = [e for e in ej["effects"] if e["objective"] == o["name"]]
    keys = sorted(k for k, _ in p.keys if k.startswith(o["name"] + ":"))
    want = sorted("%s:%s:%s=%s" % (o["name"], t, e["dimension"], e["value"]) for e in rows for t in names)
    assert keys == want, (keys, want)
assert len(rows) == 3 and len(p.keys) == 2 * 3 * 2, len(p.keys)
# The flip: reorder on speed, its group text marked, and said.
flips = [t for f, t in p.text if f]
assert any(t.startswith("reorder: -fno-reorder-blocks, against (no reorder)") and "changes sign" in t
           for t in flips), p.text
e = [x for x in ej["effects"] if x["objective"] == "speed" and x["value"] == "-fno-reorder-blocks"][0]
assert e["sign_change"], e
assert "<code>-fno-reorder-blocks</code> changes sign between targets</b>: helps on bcm53xx (+1" in src
assert "hurts on mt7621 (-1" in src
# The heat map: a cell per configuration and target; the bests and the
# common default where tuner defaults has them; the verdict.
assert len(p.rows) == len(dj["regret"]) == 8, (len(p.rows), len(dj["regret"]))
assert all(len(r["cells"]) == len(names) for r in p.rows), p.rows
def label(flags):
    return flags or "(no flags)"
common = [r for r in p.rows if "common" in r["cls"]]
assert len(common) == 1 and common[0]["label"] == label(dj["common"]["flags"]) + "  (common default)", common
for i, t in enumerate(dj["targets"]):
    best = [r["label"] for r in p.rows if "best" in r["cells"][i]]
    lab = label(t["best"]["flags"])
    assert best == [lab] or best == [lab + "  (common default)"], (t["name"], best, lab)
assert '<p class="verdict"><b>Verdict:</b> ' + html.escape(dj["verdict"], quote=True) in src, dj["verdict"]
assert dj["verdict"].startswith("per-target defaults gain"), dj["verdict"]
print("two targets: %d points, %d bars, %d heat-map cells" % (sum(p.points.values()), len(p.keys),
      sum(len(r["cells"]) for r in p.rows)))
EOF2
}
check_two "$two" || fail "the two targets' page"
if [ $chromium = 1 ]; then
	shoot "$two" "$TMPDIR/report-two.png" 4800
	chrome "$two" --dump-dom >"$TMPDIR/dom-two.html" ||
		fail "chromium --dump-dom: $(tail -n 5 "$TMPDIR/chromium.log")"
	check_two "$TMPDIR/dom-two.html" || fail "the two targets' rendered DOM"
	echo "ok: two targets; screenshot $TMPDIR/report-two.png"
fi
