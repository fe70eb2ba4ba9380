# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/e2e/t_bisect.sh and bench/bisect.sh: a git repository
# with 30 commits of natbench history and one known regression, for tuner
# bisect with the noisy target (targets/noisy) as the measure command.
#
# bisect_history DIR POS [FACTOR [POS2 FACTOR2]]: makes DIR, a repository
# whose natbench/ starts as a copy of targets/natbench's sources (commit 0,
# tagged "good"), then commits 1..30 (the last tagged "bad"), commit POS
# being the one regression: it adds real work to every packet's path (a
# hash of BISECT_ROUNDS rounds, default 64, over each received Ethernet
# header in fp_rx.c) and sets natbench/truth to "* FACTOR" (default 0.97:
# every configuration 3% slower; until then the truth file says
# nothing). With POS2 (> POS) the change comes in two steps: commit POS2
# hashes the header a second time and sets the truth to "* FACTOR2".
# With BISECT_BROKEN=1 the commit before POS does not build (it adds
# natbench/BROKEN, which the study's build refuses; POS removes it). The
# others, in a fixed cycle, add only unused code (a real C function,
# never called, in an fp_*.c file: a new layout), edit a comment in an
# fp_*.c file (a new artifact too), edit natbench/README.md, or edit a
# NOTES file outside natbench/ (nothing a build sees). The commits just
# before and after POS add unused code, where a naive bisect goes astray.
# BISECT_SUBJECT, when set, is POS's commit subject (a hostile one, say).
# Sets: culprit (POS's id), layout_only (ids of the commits that change
# the artifact but not the truth, space-separated).
#
# The matching study (bisect_study FILE REPO NOISY SEED): the build
# concatenates the sources into the artifact and copies the truth file,
# with no compiler; the measure command is noisy with 0.5% run noise and
# layout offsets N(0, 2%) keyed by the artifact's content and the layout
# seed, so any commit that changes the artifact draws new offsets.

bisect_history() {
	local dir=$1 pos=$2 factor=${3:-0.97} pos2=${4:-0} factor2=${5:-} src=$ROOT/targets/natbench
	local rounds=${BISECT_ROUNDS:-64} i kind f n
	local files=(fp_nat.c fp_ct.c fp_ip.c fp_route.c fp_qdisc.c fp_tx.c fp_vlan.c fp_skb.c)
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
	export GIT_AUTHOR_NAME=tuner GIT_AUTHOR_EMAIL=tuner@example.invalid
	export GIT_COMMITTER_NAME=tuner GIT_COMMITTER_EMAIL=tuner@example.invalid
	mkdir -p "$dir/natbench"
	cp "$src"/*.c "$src"/*.h "$src"/*.sh "$src"/Makefile "$src"/README.md "$dir/natbench/"
	echo '# truth for targets/noisy: no effect yet' >"$dir/natbench/truth"
	echo 'notes' >"$dir/NOTES"
	git -C "$dir" init -q -b main
	git -C "$dir" add -A
	git -C "$dir" commit -q -m "import natbench"
	git -C "$dir" tag good
	layout_only=
	for i in $(seq 1 30); do
		f=${files[$((i % ${#files[@]}))]}
		if [ "$i" -eq "$pos" ]; then
			kind=regression
		elif [ "$i" -eq "$pos2" ]; then
			kind=second
		elif [ $((i - pos)) -eq 1 ] || [ $((pos - i)) -eq 1 ]; then
			kind=unused
		else
			n=(comment unused readme unused notes)
			kind=${n[$((i % 5))]}
		fi
		case $kind in
		regression)
			cat >>"$dir/natbench/fp_rx.c" <<EOF

/* Sum of every received Ethernet header, for the link statistics. */
uint32_t fp_rx_hdr_sum;

uint32_t fp_rx_hdr_hash(const uint8_t *h)
{
	uint32_t s = 2166136261u;

	for (unsigned i = 0; i < $rounds; i++)
		s = (s ^ h[i % 14]) * 16777619u;
	return s;
}
EOF
			sed -i 's/^static void eth_type_trans(struct sk_buff \*skb)$/extern uint32_t fp_rx_hdr_sum;\nuint32_t fp_rx_hdr_hash(const uint8_t *h);\n\n&/' \
				"$dir/natbench/fp_rx.c"
			sed -i '/^static void eth_type_trans/,/^}/ s/^\tskb->protocol = rd16(h + 12);$/\tfp_rx_hdr_sum += fp_rx_hdr_hash(h);\n&/' \
				"$dir/natbench/fp_rx.c"
			grep -q 'fp_rx_hdr_sum += fp_rx_hdr_hash(h);' "$dir/natbench/fp_rx.c" ||
				{ echo "bisect_history: fp_rx.c has no eth_type_trans to slow down" >&2; return 1; }
			echo "* $factor" >"$dir/natbench/truth"
			[ ! -e "$dir/natbench/BROKEN" ] || git -C "$dir" rm -q natbench/BROKEN
			git -C "$dir" commit -q -am "${BISECT_SUBJECT:-fp_rx: hash every received Ethernet header}"
			culprit=$(git -C "$dir" rev-parse HEAD)
			continue
			;;
		second)
			sed -i '/^static void eth_type_trans/,/^}/ s/^\tfp_rx_hdr_sum += fp_rx_hdr_hash(h);$/&\n\tfp_rx_hdr_sum ^= fp_rx_hdr_hash(h + 6);/' \
				"$dir/natbench/fp_rx.c"
			echo "* $factor2" >"$dir/natbench/truth"
			git -C "$dir" commit -q -am "fp_rx: hash the header again from the source address"
			continue
			;;
		unused)
			cat >>"$dir/natbench/$f" <<EOF

/* Not called yet: folds a tuple into a tag (for a later patch, $i). */
unsigned fp_unused_tag_$i(unsigned a, unsigned b, unsigned p)
{
	unsigned x = a ^ (b * 2654435761u) ^ (p << $((i % 13)));

	for (unsigned k = 0; k < $((3 + i % 5)); k++)
		x = (x ^ (x >> 15)) * 2246822519u;
	return x ^ (x >> 16);
}
EOF
			if [ "${BISECT_BROKEN:-0}" = 1 ] && [ $((i + 1)) -eq "$pos" ]; then
				echo 'does not build' >"$dir/natbench/BROKEN"
				git -C "$dir" add natbench/BROKEN
			fi
			git -C "$dir" commit -q -am "${f%.c}: add an unused tag helper ($i)"
			;;
		comment)
			printf '/* Reviewed for the %d-th cleanup. */\n' "$i" >>"$dir/natbench/$f"
			git -C "$dir" commit -q -am "${f%.c}: comment ($i)"
			;;
		readme)
			printf '\nNote %d on the model.\n' "$i" >>"$dir/natbench/README.md"
			git -C "$dir" commit -q -am "natbench: README note ($i)"
			;;
		notes)
			echo "note $i" >>"$dir/NOTES"
			git -C "$dir" commit -q -am "NOTES: $i"
			;;
		esac
		case $kind in
		unused | comment) layout_only="$layout_only $(git -C "$dir" rev-parse HEAD)" ;;
		esac
	done
	git -C "$dir" tag bad
}

bisect_study() {
	local file=$1 repo=$2 noisy=$3 seed=$4
	cat >"$file" <<EOF
study: hist
source: {repo: $repo, rev: HEAD, path: natbench}
space:
  opt: [-O2]
build:
  command: '[ ! -e "\$TUNER_SRC/BROKEN" ] && cat "\$TUNER_SRC"/*.c "\$TUNER_SRC"/*.h >"\$TUNER_OUT/natbench" && cp "\$TUNER_SRC/truth" "\$TUNER_OUT/truth"'
  artifact: natbench
measure:
  command: '$noisy --truth "\$TUNER_OUT/truth" --layout-key "\$TUNER_ARTIFACT" --seed $seed --run-sd 0.005 --layout-sd 0.02 --state "\$TUNER_OUT/draws"'
  # The fake measurement judges the flags, not the program: each build
  # is measured (the default shares builds whose code is the same).
  same_code: separate
objectives:
  - {name: throughput, goal: max}
EOF
}

# watch_history NOTIFY: bisect_history at POS 19 in $TMPDIR/h (commits:
# its ids good..bad in order) and its study $TMPDIR/s.yaml (noisy seed 7,
# make_noisy's $noisy) with watch.notify's command NOTIFY (YAML, quoted).
watch_history() {
	bisect_history "$TMPDIR/h" 19
	mapfile -t commits < <(git -C "$TMPDIR/h" rev-list --reverse good..bad)
	bisect_study "$TMPDIR/s.yaml" "$TMPDIR/h" "$noisy" 7
	printf 'watch:\n  notify: {command: %s, timeout: 30}\n' "$1" >>"$TMPDIR/s.yaml"
}
