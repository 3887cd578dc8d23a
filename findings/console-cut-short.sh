# Nothing says the kernel's console is complete. Real logs end it with the
# kernel's "reboot: Restarting system" (kernel/reboot.c kernel_restart(),
# pr_emerg, both trees; every log under ~/.cache/pidfd-getfd/logs/6.1 has
# it). A console that stops during the tests passes, and so does a guest
# that died without a word after @@@ DONE (a triple fault resets the CPU;
# QEMU -no-reboot then exits 0, so boot/run.sh writes no @@@ HOST): what
# the kernel said between the dump and the end (a WARNING in the reboot
# path, device shutdown) is on the console only, and is not there.
. "$(dirname "$0")/lib.sh"
good arm64
edit "$L" '/reboot: Restarting system/d'
edit "$L" '$a [    9.000000] kselftest: Running tests in pidfd'
tail -n 3 "$L"
verdict
