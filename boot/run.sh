#!/bin/sh
# boot/run.sh [-n] [-f FLAVOUR] [-k IMAGE] [-l LOG] [-o NAMES] [-t TIMEOUT] ARCH SUITE
#   Boot ARCH's kernel and initramfs in QEMU running boot/suites/SUITE, with
#   the tests' channel and then the kernel's console in LOG (default
#   $LOGS/ARCH-SUITE.log). Exits 0 once QEMU is done; boot/verdict.awk
#   judges the log. SUITE 'shell' is interactive, on the console.
#   -f FLAVOUR  the kernel 'boot/kernel/build.sh -f FLAVOUR' built (the
#               arch's if the flavour has no kernel.config), with the
#               flavour's settings (boot/flavour/FLAVOUR/flavour.conf)
#   -k IMAGE    another kernel image (the pristine baseline, the canary)
#   -o NAMES    only the tests NAMES (comma-separated) of SUITE, each as
#               its line says (the pristine baseline runs the tests it
#               judges); the log's RUN line says only=NAMES
#   -t TIMEOUT  the boot's timeout; default: derived from the suite's test
#               timeouts (boot/suite.awk)
#   -n          only say whether the run would 'boot' or 'keep' the log
#   A run whose inputs (kernel, initramfs, suite, timeout, QEMU and its
#   settings, this script) are those of the last complete run into the same
#   LOG is not repeated when that log passed the verdict: that log is kept.
#   Environment: ACCEL=kvm|tcg skips the KVM probe; ICOUNT=N runs TCG with
#   -icount shift=N,sleep=off (guest time from instructions executed: one
#   is 2^N ns; for make bench's figures that host load cannot move);
#   SHOW_TAP=1 shows the
#   tests' TAP as it comes; RERUN=1 boots even when nothing changed;
#   REUSE_FAILED=1 also keeps a log that failed (for the harness
#   self-test, whose logs must fail).
set -eu
. "$(dirname "$0")/lib.sh"
usage="usage: $0 [-n] [-f FLAVOUR] [-k IMAGE] [-l LOG] [-o NAMES] [-t TIMEOUT] ARCH SUITE"
flavour= image= log= timeout= dry= only= qemu_only=
while getopts nf:k:l:o:t: opt; do
	case $opt in
	n) dry=1 ;;
	f) flavour=$OPTARG ;;
	k) image=$OPTARG ;;
	l) log=$OPTARG ;;
	o) only=$OPTARG ;;
	t) timeout=$OPTARG ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 2 ] || die "$usage"
case ${ICOUNT:-} in
'' | [0-9] | 10) ;;
*) die "ICOUNT=$ICOUNT: want a shift from 0 to 10" ;;
esac
load_arch "$1"
[ -z "${ICOUNT:-}" ] || [ "$QEMU_ICOUNT" = yes ] ||
	die "ICOUNT=$ICOUNT: not on $ARCH: ${QEMU_ICOUNT#no: } (boot/arch/$ARCH/arch.conf)"
suite=$2
[ -z "$flavour" ] || load_flavour "$flavour"
[ -f "$TOP/boot/suites/$suite" ] || die "no suite boot/suites/$suite"
# a word of the kernel's command line, which init reads (boot/image/init.c)
case $only in
*[!A-Za-z0-9_.,-]*) die "-o '$only': want test names joined by ','" ;;
esac
# the guest's reader under systemd (init.c's suite_runner) takes 511
[ "${#only}" -le 400 ] || die "-o: longer than 400 characters"
# The boot's timeout is the sum of its tests' (each enforced by the guest's
# /init) unless one is given; a guest past it has hung. The suite and -o's
# names are checked either way.
sum=$(awk -v abis="$ABIS" -v only="$only" -f "$TOP/boot/suite.awk" "$TOP/boot/suites/$suite") ||
	die "bad suite boot/suites/$suite${only:+, or -o $only}"
timeout=${timeout:-$sum}
# A flavour with a kernel.config boots its own build; one without, the arch's.
kdir=$BUILD
[ -z "$flavour" ] || [ ! -f "$TOP/boot/flavour/$flavour/kernel.config" ] || kdir=$BUILD-$flavour
image=${image:-$kdir/$KIMAGE}
# A flavour may boot an image with a layer of its own (INITRD_LAYER).
initrd=$BCACHE/initramfs-$ARCH${INITRD_LAYER:+-$INITRD_LAYER}.cpio
log=${log:-$LOGS/$ARCH-$suite.log}
[ -f "$image" ] || die "no kernel image $image (make kernel ARCH=$ARCH)"
[ -f "$initrd" ] && [ -f "$initrd.content" ] || die "no initramfs $initrd (make initramfs ARCH=$ARCH${INITRD_LAYER:+, then boot/image/$INITRD_LAYER-layer.sh $ARCH})"
mkdir -p "$LOGS"
kernel_args=$KERNEL_ARGS
host_mhz=
case $kernel_args in
*@HOST_TSC_KHZ@*)
	khz=$(host_tsc_khz)
	host_mhz=$((khz / 1000))
	kernel_args=$(echo "$kernel_args" | sed "s/@HOST_TSC_KHZ@/$khz/g")
	;;
esac

# qemu ACCEL SUITE CONSOLE TAP [WRAPPER...]: run QEMU (under WRAPPER, e.g.
# timeout), the kernel's console on the first serial port (CONSOLE: QEMU's
# -serial argument) and the tests' channel, the arch's device for the
# QEMU character device TAP ('stdio', or 'null' and not used); only the
# tests $qemu_only of SUITE, if set (-o: the suite's run, not the probe's).
qemu() {
	_accel=$1 _suite=$2 _console=$3 _tap=$4
	shift 4
	_tap_arg="tap=$TAP "
	[ "$_tap" != null ] || _tap_arg=
	# shellcheck disable=SC2086 # QEMU_TAP and QEMU_EXTRA are argument lists
	exec "$@" "$QEMU" -M "$QEMU_MACHINE" -cpu "$QEMU_CPU" -smp "$QEMU_SMP" -m "$QEMU_MEM" \
		-accel "$_accel" -kernel "$image" -initrd "$initrd" \
		-append "console=$CONSOLE ${_tap_arg}panic=-1 oops=panic suite=$_suite${qemu_only:+ only=$qemu_only} $kernel_args" \
		-display none -monitor none -serial "$_console" -chardev "$_tap,id=tap" $QEMU_TAP \
		-no-reboot $QEMU_EXTRA ${ICOUNT:+-icount shift=$ICOUNT,sleep=off}
}

# KVM is tried with a short boot; a guest that hangs or aborts means TCG.
# The answer is kept until the kernel image changes, in $memo: the
# accelerator, and for TCG after a failed probe why: QEMU's own first
# line when it exits (QEMU 7.2 aborts at once on some hosts: "failed to
# set MSR 0x10a"), or the probe's timeout.
choose_accel() {
	[ -z "${ACCEL:-}" ] || { echo "$ACCEL"; return; }
	[ -z "${ICOUNT:-}" ] || { echo tcg; return; }
	[ "$KVM_USABLE" = probe ] && [ -w /dev/kvm ] || { echo tcg; return; }
	memo=$BCACHE/accel-$ARCH${flavour:+-$flavour}
	if [ ! -f "$memo" ] || [ "$image" -nt "$memo" ]; then
		_rc=0
		(qemu kvm probe file:/dev/null stdio timeout -k 2 20) \
			</dev/null >"$memo.out" 2>"$memo.err" || _rc=$?
		if grep -q '^@@@ DONE' "$memo.out"; then
			echo kvm >"$memo"
		elif [ "$_rc" = 124 ] || [ "$_rc" = 137 ]; then
			printf 'tcg\na KVM guest did not boot in 20 s\n' >"$memo"
		else
			printf 'tcg\nKVM unusable: %s\n' \
				"$(grep -m 1 . "$memo.err" || echo "QEMU exited with status $_rc and no message")" >"$memo"
		fi
	fi
	cat "$memo"
}

accel_memo=$(choose_accel)
accel=$(printf '%s\n' "$accel_memo" | head -n 1)
accel_why=$(printf '%s\n' "$accel_memo" | sed -n 2p)
if [ -n "$dry" ]; then
	:
elif [ -n "$accel_why" ]; then
	step "accelerator: $accel ($accel_why)" >&2
else
	step "accelerator: $accel" >&2
fi

if [ "$suite" = shell ]; then
	step "interactive guest; leave with 'exit' or Ctrl-A X"
	qemu "$accel" shell mon:stdio null
	exit 0
fi

# One run at a time into a log: a second one would mix its console into
# the first one's.
exec 9>"$log.lock"
flock -n 9 || die "another boot is writing $log (lock: $log.lock)"

# The inputs of this run, as one hash: the same hash as the last complete
# run into LOG means the same kernel, image, suite and QEMU command (the
# host's TSC rate counts in MHz: it is measured each time). LOG.key holds
# it and the hash of the log that run wrote, so an edited log is not kept.
key=$({
	sha256sum "$image" "$0" "$TOP/boot/lib.sh" | cut -d' ' -f1
	cat "$initrd.content"
	"$QEMU" --version | head -n 1
	echo "$BASE $ARCH $suite only=$only $timeout $accel ${ICOUNT:-} $QEMU_MACHINE $QEMU_CPU $QEMU_SMP $QEMU_MEM $QEMU_EXTRA $CONSOLE $TAP $QEMU_TAP $KERNEL_ARGS $host_mhz"
} | sha256sum | cut -d' ' -f1)
# A log is kept if its key matches, it passes the verdict or the caller
# keeps failed logs, and QEMU itself did not fail in it.
if log_kept "$log" "$key" ${REUSE_FAILED:+failed} && ! grep -q '^@@@ HOST qemu exited' "$log"; then
	[ -z "$dry" ] || { echo keep; exit 0; }
	step "suite '$suite': kept $log, from a run with the same inputs at $(date -r "$log.key" +%H:%M:%S) (RERUN=1 boots again)"
	exit 0
fi
[ -z "$dry" ] || { echo boot; exit 0; }
rm -f "$log.key"

step "booting suite '$suite' (timeout ${timeout} s, log: $log)"
# The tests' channel goes to LOG.tap (a file: QEMU's virtio console drops
# what a non-blocking pipe does not take), shown as progress while it
# grows; the kernel's console to LOG.console. When QEMU is done, LOG.new
# gets the RUN line, the channel, QEMU's own messages and the console after
# a CONSOLE line that carries this boot's secret (no test sees it, so none
# can write that line), and becomes LOG.
new=$log.new tap=$log.tap console=$log.console qemu_out=$log.qemu
token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
: >"$tap"
: >"$console"
qemu_only=$only
qemu "$accel" "$suite" "file:$console" "file,path=$tap" timeout -k 5 "$timeout" \
	</dev/null >"$qemu_out" 2>&1 9>&- &
qpid=$!
# timeout runs QEMU in a process group of its own: an interrupted run.sh
# must end it (it would go on writing, and hold the log's lock)
trap 'kill "$qpid" 2>/dev/null' EXIT
trap 'kill "$qpid" 2>/dev/null; rm -f "$tap" "$console" "$qemu_out"; exit 130' INT TERM HUP
# the progress in the background: a signal to run.sh alone interrupts wait
tail -n +1 -f --pid="$qpid" "$tap" |
	awk -v show_tap="${SHOW_TAP:-}" -f "$TOP/boot/console.awk" -f "$TOP/boot/progress.awk" |
	while IFS= read -r line; do step "  $line"; done &
wait $!
rc=0
wait "$qpid" || rc=$?
{
	echo "@@@ RUN base=$BASE arch=$ARCH suite=$suite${only:+ only=$only} accel=$accel${ICOUNT:+ icount=$ICOUNT} console=$token smp=$SMP_OK"
	cat "$tap"
	# a last line the guest did not end must not swallow a marker
	echo
	cat "$qemu_out"
	echo
	case $rc in
	0) ;;
	124 | 137) echo "@@@ HOST guest did not finish within $timeout s" ;;
	*) echo "@@@ HOST qemu exited with status $rc" ;;
	esac
	echo "@@@ CONSOLE $CONSOLE $token"
	cat "$console"
} >"$new"
rm -f "$tap" "$console" "$qemu_out"
trap - EXIT INT TERM HUP
mv "$new" "$log"
log_key "$log" "$key"
step "guest finished (qemu status $rc, $(($(date +%s) - _t0)) s)"
