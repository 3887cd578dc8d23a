#!/bin/sh
# boot/run.sh ARCH SUITE [TIMEOUT]
#   Boot ARCH's kernel and initramfs in QEMU running boot/suites/SUITE, with
#   the console in $CACHE/logs/ARCH-SUITE.log. TIMEOUT defaults to the sum
#   of the suite's test timeouts (boot/suite.awk). Exits 0 once QEMU is done;
#   boot/verdict.awk judges the log. SUITE 'shell' is interactive.
#   ACCEL=kvm|tcg skips the KVM probe; FLAVOUR=debug boots the kernel
#   boot/kernel.sh ARCH debug built; KERNEL_IMAGE, INITRAMFS, GUEST_MEM and
#   RUN_LOG override the defaults; SHOW_TAP=1 shows the tests' TAP as it comes.
set -eu
. "$(dirname "$0")/lib.sh"
load_arch "${1:?usage: $0 ARCH SUITE [TIMEOUT]}"
suite=${2:?usage: $0 ARCH SUITE [TIMEOUT]}
[ -f "$TOP/boot/suites/$suite" ] || die "no suite boot/suites/$suite"
# The boot's timeout is the sum of its tests' (each enforced by the guest's
# /init) unless one is given; a guest past it has hung.
timeout=${3:-$(awk -v abis="$ABIS" -f "$TOP/boot/suite.awk" "$TOP/boot/suites/$suite")} ||
	die "bad suite boot/suites/$suite"
image=${KERNEL_IMAGE:-$BUILD${FLAVOUR:+-$FLAVOUR}/$KIMAGE}
mem=${GUEST_MEM:-$QEMU_MEM}
initrd=${INITRAMFS:-$CACHE/initramfs-$ARCH.cpio}
log=${RUN_LOG:-$LOGS/$ARCH-$suite.log}
[ -f "$image" ] || die "no kernel image $image (make kernel ARCH=$ARCH)"
[ -f "$initrd" ] || die "no initramfs $initrd (make initramfs ARCH=$ARCH)"
mkdir -p "$LOGS"
case ${KERNEL_ARGS:-} in
*@HOST_TSC_KHZ@*)
	khz=$(host_tsc_khz)
	KERNEL_ARGS=$(echo "$KERNEL_ARGS" | sed "s/@HOST_TSC_KHZ@/$khz/g")
	;;
esac

# qemu ACCEL SUITE SERIAL [WRAPPER...]: run QEMU (under WRAPPER, e.g. timeout).
qemu() {
	_accel=$1 _suite=$2 _serial=$3
	shift 3
	"$@" "$QEMU" -M "$QEMU_MACHINE" -cpu "$QEMU_CPU" -smp "$QEMU_SMP" -m "$mem" \
		-accel "$_accel" -kernel "$image" -initrd "$initrd" \
		-append "console=$CONSOLE panic=-1 oops=panic suite=$_suite ${KERNEL_ARGS:-}" \
		-display none -monitor none -serial "$_serial" -no-reboot $QEMU_EXTRA
}

# KVM is tried with a short boot; a guest that hangs or aborts means TCG.
# The answer is kept until the kernel image changes.
choose_accel() {
	[ -z "${ACCEL:-}" ] || { echo "$ACCEL"; return; }
	[ "$KVM_USABLE" = probe ] && [ -w /dev/kvm ] || { echo tcg; return; }
	memo=$CACHE/accel-$ARCH${FLAVOUR:+-$FLAVOUR}
	if [ ! -f "$memo" ] || [ "$image" -nt "$memo" ]; then
		if qemu kvm probe stdio timeout -k 2 "${KVM_PROBE_TIMEOUT:-20}" </dev/null 2>&1 |
			grep -q '^@@@ DONE'; then
			echo kvm >"$memo"
		else
			echo tcg >"$memo"
		fi
	fi
	cat "$memo"
}

accel=$(choose_accel)
if [ "$accel" = tcg ] && [ "$KVM_USABLE" = probe ] && [ -w /dev/kvm ] && [ -z "${ACCEL:-}" ]; then
	step "accelerator: tcg (a KVM guest did not boot in ${KVM_PROBE_TIMEOUT:-20} s)" >&2
else
	step "accelerator: $accel" >&2
fi

if [ "$suite" = shell ]; then
	step "interactive guest; leave with 'exit' or Ctrl-A X"
	qemu "$accel" shell mon:stdio
	exit 0
fi

step "booting suite '$suite' (timeout ${timeout} s, log: $log)"
echo "@@@ RUN arch=$ARCH suite=$suite accel=$accel smp=$SMP_OK" >"$log"
rc_file=$log.rc
cr=$(printf '\r')
{
	rc=0
	qemu "$accel" "$suite" stdio timeout -k 5 "$timeout" </dev/null 2>&1 || rc=$?
	echo "$rc" >"$rc_file"
} | tee -a "$log" | while IFS= read -r line; do
	line=${line%"$cr"}
	case $line in
	'ok '* | 'not ok '* | '# '[!\ ]*) [ -z "${SHOW_TAP:-}" ] || step "  $line" ;;
	'@@@ END '*) set -- $line; step "  $3/$4: ${5#status=}" ;;
	'@@@ INIT '*) step "  ${line#@@@ INIT }" ;;
	'@@@ STRAY '*) step "  left behind: ${line#@@@ STRAY }" ;;
	'@@@ KMSG '*) step "  kernel: ${line#@@@ KMSG }" ;;
	esac
done
rc=$(cat "$rc_file")
rm -f "$rc_file"
case $rc in
0) ;;
124 | 137) echo "@@@ HOST guest did not finish within $timeout s" >>"$log" ;;
*) echo "@@@ HOST qemu exited with status $rc" >>"$log" ;;
esac
step "guest finished (qemu status $rc, $(($(date +%s) - _t0)) s)"
