#!/bin/sh
# boot/plan/docs.sh [-w | -s]
#   The one generator (make docs): what follows from the plan's rules,
#   written or checked in one go:
#   - boot/plan/logs, the plan the verdict reads (boot/plan/expand.sh);
#   - each block of README.md and docs/harness.md between
#     "<!-- plan: NAME -->" and "<!-- /plan: NAME -->": counts from the
#     plan, the suites and the package lists, and the cold runs' times
#     from docs/measurements.md's table of them;
#   - .github/workflows/check.yml, the GitHub workflow that runs CI's
#     steps (the plan's ci lines, as .ci/run runs them).
#   Without -w: print the difference and exit 1 if a committed file is not
#   this (make check, through boot/checks/docs.sh); with -w: rewrite them
#   (make docs); with -s: print the suites it counts for make check, one a
#   line (the harness self-test compares them with the logs make check's
#   verdict reads).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
plan=$TOP/boot/plan/logs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
default=$(basename "$(readlink -f "$TOP/boot/base/default")")
rc=0
if [ "${1:-}" = -w ]; then
	sh "$TOP/boot/plan/expand.sh" -w
elif [ "${1:-}" != -s ]; then
	sh "$TOP/boot/plan/expand.sh" -c || rc=1
fi

# rows BASE SUITE...: the planned "arch/ABI passed skipped" rows of the
# logs of SUITEs (host checks: host/GROUP), sorted as the verdict sorts
# them; baseline has one log per arch of the check suite
rows() {
	b=$1
	shift
	nb=$(sh "$TOP/boot/plan/query.sh" arches "$b" check | wc -l)
	awk -v b="$b" -v nb="$nb" -v suites=" $* " '
	$1 == "section" && ($2 == b || $2 == "*") && index(suites, " " $4 " ") {
		r = $3 "/" $5
		if (!(r in pts)) { rows[++n] = r }
		pts[r] += $7 * ($4 == "baseline" ? nb : 1)
	}
	# a nested skip (POINT PARENT>...) is no skip of the matrix: PARENT counts
	$1 == "skip" && ($2 == b || $2 == "*") && index(suites, " " $4 " ") && index($7, ">") == 0 {
		sk[$3 "/" $5] += ($4 == "baseline" ? nb : 1)
	}
	END { for (i = 1; i <= n; i++) print rows[i], pts[rows[i]] - sk[rows[i]], sk[rows[i]] + 0 }
	' "$plan" | LC_ALL=C sort
}

# matrix BASE SUITE...: the verdict's matrix and last line, as planned
matrix() {
	rows "$@" | awk '
	{ printf "%-22s %7d %7d %7d\n", $1, $2, 0, $3; p += $2; s += $3 }
	END { printf "%d passed, 0 failed, %d skipped\n", p, s }'
}

# total BASE SUITE...: "N passed, 0 failed, M skipped"
total() {
	if [ -z "$(rows "$@")" ]; then
		echo "no plan: the verdict fails every log"
	else
		matrix "$@" | tail -n 1
	fi
}

# check_suites BASE: the suites of the logs make check's verdict reads for
# BASE, from the Makefile's one list of them (CHECK_LOGS), as a plain make
# check picks them: without the MAKEFLAGS of a make that runs this script
# (make check ARCH=arm64 would drop the oci log)
check_suites() {
	(cd "$TOP" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -s --no-print-directory print-check-suites BASE="$1") | tr '\n' ' '
}
CHECK=$(check_suites "$default")
[ -n "$CHECK" ] || { echo "$0: make print-check-suites printed no suite" >&2; exit 1; }
if [ "${1:-}" = -s ]; then
	# shellcheck disable=SC2086 # the suites, one word each
	printf '%s\n' $CHECK
	exit 0
fi

# the blocks, one file each
{
	echo '```'
	printf '%-22s %7s %7s %7s\n' arch/ABI passed failed skipped
	# shellcheck disable=SC2086
	matrix "$default" $CHECK
	echo '```'
} >"$tmp/check-matrix"

{
	echo "| base | arch/ABI | suite | test | point | the reason its line must carry |"
	echo "|---|---|---|---|---|---|"
	awk '$1 == "skip" { r = $8; for (i = 9; i <= NF; i++) r = r " " $i
		printf "| %s | %s/%s | %s | `%s` | `%s` | %s |\n", ($2 == "*" ? "every base" : $2), $3, $5, $4, $6, $7, r }' "$plan"
} >"$tmp/skips"

n=$(PIDFD_GETFD_CACHE=$tmp sh "$TOP/boot/deps.sh" -l | wc -l)
echo "installs the $n packages" >"$tmp/packages"

{
	echo "| base | target | the plan's last line |"
	echo "|---|---|---|"
	for b in $(sh "$TOP/boot/plan/query.sh" bases check); do
		suites=$(check_suites "$b")
		# shellcheck disable=SC2086
		echo "| $b | \`make check\` | $(total "$b" $suites) |"
		echo "| $b | \`make check-patched\` | $(total "$b" check) |"
		echo "| $b | \`make check-debug\` | $(total "$b" debug) |"
		echo "| $b | \`make check-prefixes\` | $(total "$b" prefixes) |"
		echo "| $b | \`make demo\` | $(total "$b" demo oci) |"
	done
} >"$tmp/targets"

{
	for s in check debug; do
		for a in $(sh "$TOP/boot/plan/query.sh" arches "$default" "$s"); do
			abis=$(sed -n "s/^ABIS='\(.*\)'/\1/p" "$TOP/boot/arch/$a/arch.conf")
			t=$(awk -v abis="$abis" -f "$TOP/boot/suite.awk" "$TOP/boot/suites/$s")
			echo "- \`boot/suites/$s\` on $a ($abis): $t s"
		done
	done
} >"$tmp/timeouts"

# cold: the cold runs' table, from docs/measurements.md (boot/plan/cold.awk)
awk -f "$TOP/boot/plan/cold.awk" "$TOP/docs/measurements.md" >"$tmp/cold"

sh "$TOP/boot/plan/query.sh" ci | awk '{ printf "- `make %s BASE=%s%s`\n", $1, $2, ($3 == "*" ? "" : " ARCH=" $3) }' >"$tmp/ci"

# workflow: .github/workflows/check.yml, one GitHub Actions job in a
# Debian 12 container that runs what .ci/run runs: make deps, then CI's
# steps, the plan's ci lines in order (boot/plan/query.sh ci), each with
# RERUN=1. What is cached, and why (docs/harness.md, "Beyond one machine"):
# ccache (bounded by CCACHE_MAXSIZE), restored from the newest earlier run
# and saved even when the job fails; the downloaded .deb files under a key
# of the package lists alone, written once (the same lists, the same
# files). The kernel trees and build directories are not: they are remade
# from the tarball and ccache. Paths are relative to the work space: inside
# a container job, github.workspace is the runner host's path, not the
# container's.
# make_steps ci|weekly: the plan's steps of that kind as make commands
make_steps() {
	sh "$TOP/boot/plan/query.sh" "$1" | awk '{ print "make " $1 " BASE=" $2 ($3 == "*" ? "" : " ARCH=" $3) }'
}

workflow() {
	# shellcheck disable=SC2016 # GitHub's expressions, not the shell's
	debs='${{ hashFiles('"'boot/deps.sh', 'boot/arch/*/packages', 'boot/flavour/*/packages', 'boot/base/*/base.conf', 'boot/plan/matrix'"') }}'
	# shellcheck disable=SC2016
	cc='${{ hashFiles('"'boot/base/*/base.conf', 'boot/kernel/*', 'boot/arch/*/kernel.config', 'boot/flavour/*/kernel.config'"') }}'
	# shellcheck disable=SC2016
	run='${{ github.run_id }}'
	ci=$(make_steps ci)
	[ -n "$ci" ] || { echo "$0: the plan has no ci lines (boot/plan/matrix)" >&2; exit 1; }
	weekly=$(make_steps weekly)
	cat <<YAML
# Generated by boot/plan/docs.sh (make docs) from the plan's ci lines
# (boot/plan/matrix): do not edit.
name: check
on:
  push:
  pull_request:
  # the weekly job (the plan's weekly lines)
  schedule:
    - cron: '17 3 * * 1'
permissions:
  contents: read
concurrency:
  group: \${{ github.workflow }}-\${{ github.ref }}
  cancel-in-progress: true
jobs:
YAML
	job check "github.event_name != 'schedule'" "$ci" "CI's steps (.ci/run)"
	[ -z "$weekly" ] ||
		job weekly "github.event_name == 'schedule'" "$weekly" "the weekly steps (the plan's weekly lines)"
}

# job NAME IF STEPS TITLE: one job of the workflow, which runs STEPS (make
# commands, one a line) when IF holds; TITLE heads its summary.
job() {
	cat <<YAML
  $1:
    if: $2
    runs-on: ubuntu-latest
    container:
      image: debian:12
      # /dev/kvm: the runner probes KVM (boot/run.sh) and falls back to
      # TCG. The host checks run bind-agent as the root daemon it is
      # (ptrace access to other uids, strace, network namespaces), which
      # the default container profile refuses: --privileged gives both.
      options: --privileged
    timeout-minutes: 120
    env:
      CCACHE_MAXSIZE: 2G
      # CI does not keep a log of an earlier run (.ci/run): boot every guest
      RERUN: 1
    defaults:
      run:
        shell: bash -o pipefail -e {0}
    steps:
      # actions/checkout clones with git only if the container has it
      - name: git, before the checkout
        run: apt-get update && apt-get install -y --no-install-recommends git ca-certificates make
      - uses: actions/checkout@v4
      - name: the work space is safe for git (the project lists its files with it)
        run: git config --global --add safe.directory "\$GITHUB_WORKSPACE"
      - name: cache paths inside the container
        run: |
          echo "PIDFD_GETFD_CACHE=\$GITHUB_WORKSPACE/.cache/pidfd-getfd" >>"\$GITHUB_ENV"
          echo "CCACHE_DIR=\$GITHUB_WORKSPACE/.cache/ccache" >>"\$GITHUB_ENV"
          mkdir -p .cache/apt/partial
          rm -f /etc/apt/apt.conf.d/docker-clean
          echo "Dir::Cache::Archives \"\$GITHUB_WORKSPACE/.cache/apt\";" >/etc/apt/apt.conf.d/90pidfd-getfd-cache
      - name: restore ccache
        uses: actions/cache/restore@v4
        with:
          path: .cache/ccache
          key: pidfd-getfd-ccache-$cc-$run
          restore-keys: |
            pidfd-getfd-ccache-$cc-
            pidfd-getfd-ccache-
      - name: restore the .deb files of these package lists
        id: debs
        uses: actions/cache/restore@v4
        with:
          path: .cache/apt/*.deb
          key: pidfd-getfd-debs-$debs
      - name: disk space before
        run: df -h
      - name: make deps, for each step's selection
        run: |
$(printf '%s\n' "$3" | sed -e 's/^make [^ ]*/make deps/' -e 's/^/          /' | awk '!seen[$0]++')
      - name: save the .deb files, once for these package lists
        if: steps.debs.outputs.cache-hit != 'true'
        uses: actions/cache/save@v4
        with:
          path: .cache/apt/*.deb
          key: pidfd-getfd-debs-$debs
$(printf '%s\n' "$3" | awk '{
	printf "      - name: %s\n", $0
	printf "        run: |\n          echo \"== %s ==\" | tee -a .cache/ci.out\n", $0
	printf "          %s </dev/null 2>&1 | tee -a .cache/ci.out\n", $0 }')
      - name: disk space after
        if: always()
        run: df -h
      - name: verdicts and each guest's accelerator in the job summary
        if: always()
        run: |
          {
            echo "### $4"
            echo '\`\`\`'
            grep -E '^(== make .* ==|FAILED |[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped)' .cache/ci.out ||
              echo 'no verdict: see the logs artifact'
            echo '\`\`\`'
            echo "### The accelerator of each guest (its log's @@@ RUN line, boot/run.sh's accelerator line)"
            echo '\`\`\`'
            grep -h '^@@@ RUN .* accel=' .cache/pidfd-getfd/logs/*/*.log | sed 's/^@@@ RUN //; s/ console=.*//' ||
              echo 'no guest log'
            grep 'accelerator: ' .cache/ci.out || echo 'no accelerator line'
            echo '\`\`\`'
          } >>"\$GITHUB_STEP_SUMMARY"
      - name: upload the logs
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: logs-$1
          path: |
            .cache/pidfd-getfd/logs/
            .cache/ci.out
          retention-days: 14
      - name: save ccache, also after a failure
        if: always()
        uses: actions/cache/save@v4
        with:
          path: .cache/ccache
          key: pidfd-getfd-ccache-$cc-$run
YAML
}

# replace FILE: FILE with each block rewritten, on stdout
replace() {
	awk -v dir="$tmp" '
	match($0, /^ *<!-- plan: [a-z-]+ -->$/) {
		indent = $0
		sub(/<.*/, "", indent)
		name = $0
		sub(/^ *<!-- plan: /, "", name)
		sub(/ -->$/, "", name)
		print
		while ((getline l < (dir "/" name)) > 0)
			print (l == "" ? "" : indent l)
		close(dir "/" name)
		skipping = name
		next
	}
	skipping != "" && $0 ~ "^ *<!-- /plan: " skipping " -->$" { skipping = "" }
	skipping == "" { print }
	END { if (skipping != "") { print "no end of block " skipping > "/dev/stderr"; exit 1 } }
	' "$1"
}

workflow >"$tmp/check.yml"

for f in README.md docs/harness.md .github/workflows/check.yml; do
	case $f in
	*.yml) cp "$tmp/check.yml" "$tmp/new" ;;
	*) replace "$TOP/$f" >"$tmp/new" ;;
	esac
	if [ "${1:-}" = -w ]; then
		cmp -s "$tmp/new" "$TOP/$f" || { cp "$tmp/new" "$TOP/$f"; echo "rewrote $f from the plan"; }
	else
		diff -u "$TOP/$f" "$tmp/new" | sed "s|$tmp/new|$f, from the plan|" || true
	fi
	cmp -s "$tmp/new" "$TOP/$f" || rc=1
done
[ "${1:-}" = -w ] || [ $rc = 0 ] || echo "what the plan makes differs from the committed text: make docs"
[ "${1:-}" = -w ] || exit $rc
