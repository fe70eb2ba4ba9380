# SPDX-License-Identifier: GPL-2.0-or-later
"""Self-test of the search benchmark's oracle and metrics on hand-made
cases (run by tests/e2e/t_search_bench.sh): /usr/bin/python3 test_oracle.py"""
import io
import json
import math
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import oracle  # noqa: E402
import traces  # noqa: E402


def tiny(sigma=(0.0, 0.0)):
    """6 configurations: a in {"", -fa} x b in {"", -fb, -fc}.
    True values (throughput, size):
      0 (12, 120)  1 (10, 100)  2 (8, 90)
      3 (12, 120)  4 (9, 110)   5 (7, 130)
    The true front: 0, 3 (identical), 1, 2: 3 distinct points; 4 is
    dominated by 1, 5 is the worst of both (the reference point)."""
    return oracle.Oracle([("a", ["", "-fa"]), ("b", ["", "-fb", "-fc"])],
                         [12, 10, 8, 12, 9, 7], [120, 100, 90, 120, 110, 130], sigma)


class Space(unittest.TestCase):
    def test_index_roundtrip(self):
        o = tiny()
        self.assertEqual(o.n, 6)
        self.assertEqual(o.values_of(0), [0, 0])
        self.assertEqual(o.values_of(4), [1, 1])  # the last dimension fastest
        self.assertEqual(o.values_of(5), [1, 2])
        for i in range(o.n):
            self.assertEqual(o.index_of(o.values_of(i)), i)
        self.assertRaises(ValueError, o.index_of, [2, 0])
        self.assertRaises(ValueError, o.index_of, [0])

    def test_flags(self):
        o = tiny()
        self.assertEqual(o.flags(0), "")
        self.assertEqual(o.flags(2), "-fc")
        self.assertEqual(o.flags(4), "-fa -fb")


class Metrics(unittest.TestCase):
    def test_dominates(self):
        self.assertTrue(oracle.dominates((2, 1), (1, 1)))
        self.assertTrue(oracle.dominates((1, 0), (1, 1)))
        self.assertFalse(oracle.dominates((1, 1), (1, 1)))
        self.assertFalse(oracle.dominates((2, 2), (1, 1)))

    def test_nondominated(self):
        pts = [(3, 5), (2, 2), (3, 5), (1, 1), (2, 3), (3, 6), (0, 1)]
        # (2, 3) by (2, 2); (3, 6) by (3, 5); (0, 1) by (1, 1); twins kept.
        self.assertEqual(oracle.nondominated(pts), [0, 1, 2, 3])
        self.assertEqual(oracle.nondominated([]), [])
        self.assertEqual(oracle.nondominated([(1, 1)]), [0])

    def test_hypervolume(self):
        # Rectangles [0, 2] x [4, 10] and [0, 1] x [2, 10]: 12 + 8 - 6.
        self.assertEqual(oracle.hypervolume([(2, 4), (1, 2)], (0, 10)), 14.0)
        self.assertEqual(oracle.hypervolume([(1, 2), (2, 4), (2, 4)], (0, 10)), 14.0)
        # A dominated point adds nothing; a point on the reference nothing.
        self.assertEqual(oracle.hypervolume([(2, 4), (1, 2), (1, 5), (0, 1), (3, 10)], (0, 10)), 14.0)
        self.assertEqual(oracle.hypervolume([], (0, 10)), 0.0)

    def test_true_front(self):
        o = tiny()
        self.assertEqual(o.ref, (7.0, 130.0))
        self.assertEqual(o.front, [0, 1, 2, 3])
        self.assertEqual(o.front_points, [(12.0, 120.0), (10.0, 100.0), (8.0, 90.0)])
        # (12-10)*(130-120) + (10-8)*(130-100) + (8-7)*(130-90)
        self.assertEqual(o.front_hv, 20.0 + 60.0 + 40.0)

    def test_trace(self):
        o = tiny()
        trace = [(4, 11, 105),   # found {4}: true (9, 110): 2 * 20 = 40
                 (1, 9.5, 101),  # {4, 1}: true (10, 100), (9, 110): 30 + 60
                 (0, 12, 120),   # {4, 1, 0}: 20 + 30 + 60
                 (4, 7, 105),    # 4's mean (9, 105) now dominated by 1's (9.5, 101): {0, 1}
                 (2, 8, 95),     # {0, 1, 2}: the whole front
                 (3, 12.5, 119)]  # 3 dominates 0 by measure: {1, 2, 3}, same true points
        m = oracle.TraceMetrics(o, trace)
        want = [40 / 120, 90 / 120, 110 / 120, 110 / 120, 1.0, 1.0]
        self.assertEqual(len(m.ratio), 6)
        for got, w in zip(m.ratio, want):
            self.assertAlmostEqual(got, w, places=12)
        self.assertEqual((m.to95, m.to99, m.final), (5, 5, 1.0))
        self.assertEqual(m.found, [1, 2, 3])
        self.assertEqual((m.missed, m.repeats, m.evaluations), (0, 1, 6))
        self.assertEqual(m.reach, 1.0)
        self.assertTrue(m.heaviest)
        cut = oracle.TraceMetrics(o, trace[:4])
        self.assertEqual((cut.to95, cut.to99, cut.missed, cut.found), (None, None, 1, [0, 1]))
        # measured: 4, 1, 0; by true values 0 and 1: 20 + 30 + 60 of 120
        self.assertAlmostEqual(cut.reach, 110 / 120, places=12)
        self.assertEqual(oracle.TraceMetrics(o, []).evaluations, 0)
        # "Reached" is >= the target.
        self.assertEqual(oracle._first([0.5, 0.95, 0.9, 1.0], 0.95), 2)
        self.assertEqual(oracle._first([0.5, 0.9], 0.95), None)

    def test_noise_misleads(self):
        # A dominated configuration measured lucky displaces a front member:
        # 4 measured (10.5, 99) dominates 1 measured (10, 100).
        o = tiny()
        m = oracle.TraceMetrics(o, [(1, 10, 100), (4, 10.5, 99)])
        self.assertEqual(m.found, [4])
        self.assertAlmostEqual(m.final, 40 / 120, places=12)
        self.assertEqual(m.missed, 3)
        # 1 was measured: chosen by true values, (10, 100) is in
        self.assertAlmostEqual(m.reach, 90 / 120, places=12)

    def test_heaviest(self):
        # Reference (7, 130); the front's HV 20 + 60 + 40 = 120. Alone,
        # (12, 120) holds 20, (10, 100) 40, (8, 90) 10.
        o = tiny()
        self.assertEqual(o.heaviest, (10.0, 100.0))
        self.assertAlmostEqual(o.heaviest_share, 40 / 120, places=12)
        # Never measured: missed however the rest is chosen.
        m = oracle.TraceMetrics(o, [(0, 12, 120), (2, 8, 90), (4, 9, 110)])
        self.assertFalse(m.heaviest)
        # by true values: (12, 120) 30, (9, 110) 20, (8, 90) 40
        self.assertAlmostEqual(m.reach, 90 / 120, places=12)
        # Measured and then displaced by a lucky neighbour: measured all
        # the same (the column says explored, not chosen).
        m = oracle.TraceMetrics(o, [(1, 10, 100), (4, 10.5, 99)])
        self.assertTrue(m.heaviest)
        self.assertTrue(any("33.3% of the hypervolume alone" in line
                            for line in oracle.describe(o)))

    def test_twins_count_once(self):
        o = tiny()
        # Either twin of (12, 120) covers that front point.
        m = oracle.TraceMetrics(o, [(3, 12, 120), (1, 10, 100), (2, 8, 90)])
        self.assertEqual((m.missed, m.final), (0, 1.0))

    def test_exhaustive_noise_free_is_exact(self):
        o = tiny()
        m = oracle.TraceMetrics(o, [(i,) + o.measure(1, i, 0) for i in range(o.n)])
        self.assertEqual((m.final, m.missed), (1.0, 0))


class Noise(unittest.TestCase):
    def test_deterministic(self):
        o = tiny((0.02, 0.001))
        self.assertEqual(o.measure(3, 1, 0), o.measure(3, 1, 0))
        self.assertNotEqual(o.measure(3, 1, 0), o.measure(3, 1, 1))
        self.assertNotEqual(o.measure(3, 1, 0), o.measure(4, 1, 0))
        self.assertNotEqual(o.measure(3, 1, 0)[0] / 10, o.measure(3, 1, 0)[1] / 100)
        self.assertEqual(tiny().measure(3, 1, 5), (10.0, 100.0))

    def test_lognormal(self):
        o = tiny((0.05, 0.0))
        logs = [math.log(o.measure(s, 1, k)[0] / 10.0) for s in range(100) for k in range(20)]
        self.assertLess(abs(sum(logs) / len(logs)), 0.005)  # 4 standard errors
        sd = math.sqrt(sum(x * x for x in logs) / len(logs))
        self.assertLess(abs(sd - 0.05), 0.004)
        self.assertTrue(all(o.measure(s, 1, 0)[1] == 100.0 for s in range(10)))


class Dataset(unittest.TestCase):
    def write(self, d, rows=None, meta=None, header=None):
        meta = meta or {"study": "t", "dims": [{"name": n, "values": v} for n, v in
                                                [("opt", ["-O2", "-Os"]), ("reorder", ["", "-fx"])]],
                        "objectives": [{"name": "throughput", "goal": "max"},
                                       {"name": "size", "goal": "min"}],
                        "noise": {"throughput": {"layout_rel_sd": 0.03, "run_rel_sd": 0.04},
                                  "size": {"layout_rel_sd": 0.001, "run_rel_sd": 0}},
                        "generated": {"command": "c", "wall_seconds": 1, "date": "d"}}
        rows = rows or ["0,0,0,10.5,100", "1,0,1,11,101", "2,1,0,9,90", "3,1,1,9,90"]
        with open(os.path.join(d, "oracle.json"), "w") as f:
            json.dump(meta, f)
        with open(os.path.join(d, "oracle.csv"), "w") as f:
            f.write((header or "index,opt,reorder,throughput,size") + "\n")
            f.write("\n".join(rows) + "\n")

    def test_load_and_cli(self):
        with tempfile.TemporaryDirectory() as d:
            self.write(d)
            o = oracle.load(d)
            self.assertEqual(o.n, 4)
            self.assertAlmostEqual(o.sigma[0], 0.05, places=12)
            self.assertEqual(o.flags(3), "-Os -fx")
            self.assertEqual(len(o.front_points), 3)
            with open(os.path.join(d, "batch"), "w") as f:
                f.write("2 0\n2 1\n0 0\n")
            out = io.StringIO()
            with redirect_stdout(out):
                self.assertEqual(oracle.main(["--data", d, "eval", "--seed", "7", "--batch",
                                              os.path.join(d, "batch")]), 0)
            want = [o.measure(7, 2, 0), o.measure(7, 2, 1), o.measure(7, 0, 0)]
            got = [tuple(float(x) for x in line.split()) for line in out.getvalue().split("\n") if line]
            self.assertEqual(got, want)  # exact: repr round-trips
            out = io.StringIO()
            with redirect_stdout(out):
                self.assertEqual(oracle.main(["--data", d, "--noise-scale", "0", "eval", "--seed", "7",
                                              "--k", "3", "1"]), 0)
            self.assertEqual(out.getvalue(), "11.0 101.0\n")

    def test_rejects(self):
        bad = [dict(rows=["0,0,0,10.5,100", "1,0,1,11,101", "3,1,0,9,90", "2,1,1,9,90"]),  # index
               dict(rows=["0,0,0,10.5,100", "1,0,1,11,101", "2,1,0,9,90"]),  # one missing
               dict(rows=["0,0,0,10.5,100", "1,0,1,11,101", "2,1,0,9,90", "3,1,2,9,90"]),  # value
               dict(rows=["0,0,0,10.5,100", "1,0,1,11,101", "2,1,0,9,90", "3,1,1,x,90"]),
               dict(header="index,opt,reorder,size,throughput")]
        for b in bad:
            with tempfile.TemporaryDirectory() as d:
                self.write(d, **b)
                self.assertRaises(oracle.DataError, oracle.load, d)
        with tempfile.TemporaryDirectory() as d:
            self.assertRaises(oracle.DataError, oracle.load, d)

    def test_write_roundtrip(self):
        dims = [("opt", ["-O2", "-Os"]), ("reorder", ["", "-fx"])]
        values = {0: (10.25, 100.0), 1: (11.0, 101.0), 2: (9.0, 90.4), 3: (9.5, 90.0)}
        with tempfile.TemporaryDirectory() as d:
            oracle.write(d, "w", dims, values, {"throughput": 0.0123456789, "size": 0.0},
                         {"configurations": 4}, {"command": "c", "wall_seconds": 3, "date": "d"},
                         {"layout_seeds": 6, "of": "mean"})
            o = oracle.load(d)
            self.assertEqual(o.dims, dims)
            self.assertEqual(o.throughput, [10.25, 11.0, 9.0, 9.5])
            self.assertEqual(o.size, [100, 101, 90, 90])  # bytes are whole
            self.assertEqual(o.sigma, (0.012346, 0.0))
            self.assertEqual(o.meta["generated"]["configurations"], 4)
            self.assertIn("each the mean of its 6 layout seeds", oracle.describe(o)[0])
            del values[2]
            self.assertRaises(oracle.DataError, oracle.write, d, "w", dims, values,
                              {"throughput": 0, "size": 0}, {}, {}, {})


class Harness(unittest.TestCase):
    def test_quantile(self):
        self.assertEqual(harness.quantile([4, 1, 3, 2], 0.5), 2.5)
        self.assertEqual(harness.quantile([1, 2, 3, 4, 5], 0.25), 2)
        self.assertEqual(harness.quantile([1, math.inf, math.inf], 0.5), math.inf)

    def test_mann_whitney(self):
        self.assertGreater(harness.mann_whitney_p([1, 2, 3, 4], [1, 2, 3, 4]), 0.9)
        self.assertLess(harness.mann_whitney_p(list(range(20)), list(range(100, 120))), 1e-6)

    def test_median_gap(self):
        gap, lo, hi = harness.median_gap([0.90, 0.91, 0.92, 0.93, 0.94] * 4,
                                         [0.95, 0.96, 0.97, 0.98, 0.99] * 4)
        self.assertAlmostEqual(gap, 0.05)
        self.assertTrue(0 < lo <= gap <= hi)
        self.assertEqual(harness.median_gap([0.9, 0.95], [0.9, 0.95], seed=3),
                         harness.median_gap([0.9, 0.95], [0.9, 0.95], seed=3))
        gap, lo, hi = harness.median_gap([0.9, 0.92, 0.94] * 5, [0.9, 0.92, 0.94] * 5)
        self.assertEqual(gap, 0)
        self.assertTrue(lo < 0 < hi)

    def test_paired_gap(self):
        a = [0.90, 0.91, 0.92, 0.93, 0.94] * 4
        gap, lo, hi = traces.paired_gap(a, [x + 0.01 for x in a])
        self.assertAlmostEqual(gap, 0.01)
        self.assertAlmostEqual(lo, 0.01)  # every seed moved alike: no spread
        self.assertAlmostEqual(hi, 0.01)
        self.assertEqual(traces.paired_gap(a, a), (0, 0, 0))
        gap, lo, hi = traces.paired_gap(a, list(reversed(a)))
        self.assertEqual(gap, 0)
        self.assertTrue(lo < 0 < hi)

    def test_margins(self):
        vals = {"random": [0.90, 0.91, 0.92, 0.93, 0.94],
                "optuna-tpe": [0.95, 0.96, 0.97, 0.98, 0.995],
                "tuner-surrogate-race": [0.97, 0.98, 0.992, 0.994, 0.996]}
        rs = [{"strategy": st, "budget": 10, "seed": i + 1, "final": v, "error": None}
              for st, vs in vals.items() for i, v in enumerate(vs)]
        lines = harness.margins(rs, [10], list(vals), {10: 5})
        self.assertEqual(len(lines), 3)
        self.assertIn("| 10 (5%) | optuna-tpe 0.970 | 0.992 | +0.022 (", lines[2])
        self.assertTrue(lines[2].endswith("| 1/5, 3/5 |"))
        self.assertEqual(harness.margins(rs, [10], ["random", "optuna-tpe"], {10: 5}), [])

    def test_proposal(self):
        o = tiny()
        self.assertEqual(harness.parse_proposal(o, "1,1\t-fa -fb"), 4)
        self.assertEqual(harness.parse_proposal(o, "0,0\t"), 0)
        self.assertRaises(ValueError, harness.parse_proposal, o, "1,1\t-fa")
        self.assertRaises(ValueError, harness.parse_proposal, o, "1,1 -fa -fb")
        self.assertRaises(ValueError, harness.parse_proposal, o, "1,3\t-fa")


if __name__ == "__main__":
    unittest.main()
