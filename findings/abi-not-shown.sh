# Nothing ties a section to its ABI. The 'hello' test exists to show that
# "a static binary of this ABI runs" (boot/guest-tests/hello.c prints its
# word size and uname's release and machine), but the verdict reads only
# the count of its points: an i386 section whose binary is 64-bit (a build
# that dropped -m32, an image that copied the native binaries into
# /abi/i386/bin) passes, and every other i386 section with it, so four
# ABIs are proven by two; a uname release of another kernel passes too.
. "$(dirname "$0")/lib.sh"
good x86_64
# hello as it prints (a real log's lines), then the broken ABI
for abi in x86_64 i386; do
	in_sect "$L" "$abi hello" "s/^ok 1 a static 32-bit binary runs\$/ok 1 a static 64-bit binary runs/;s/^\(ok 2 uname reports a Linux kernel # \)[^ ]*/\15.10.0/"
done
grep -A4 '^@@@ BEGIN i386 hello' "$L"
verdict
