# Latent (the plan has no 'known' line today): a known failure is excused
# by "the pristine kernel's log" ARCH-pristine.log when that file is a
# byte-for-byte copy of the check log itself: same boot id (INIT, KLOG,
# console), same 'Linux version' banner (the patched build). pristine_fails()
# reads only its RUN line, its sections, DONE, its console token and the
# trouble list; nothing says it is another boot of another kernel, so the
# series' own failure is excused by itself.
. "$(dirname "$0")/lib.sh"
S="x86_64 man-example"
good x86_64
{ cat "$PLAN"; printf 'known\t6.1\tx86_64\tcheck\t%s point-2 fails without the series too\n' "$S"; } >"$T/plan"
PLAN=$T/plan
in_sect "$L" "$S" 's/^ok 2 point-2$/not ok 2 point-2/;s/status=0$/status=1/'
cp "$L" "$D/x86_64-pristine.log"
verdict
grep 'known failure' "$T/out"
