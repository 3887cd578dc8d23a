#!/bin/sh
# boot/tests/bench-scale.sh
#   agent-scale's rows (samples/bind/bench/agent-scale.c) from crafted
#   logs of the bench guest (the agent run by agent-scale) and of the
#   systemd guest (by systemd): boot/bench/tables.awk makes one markdown
#   row per manager and size and one CSV row each, the same size under
#   two managers stays two rows, the CSV starts with its header, a
#   restart without a time stays "not measured" with its sentence, and
#   boot/bench/scale-doc.sh puts the
#   table, the machine and the reference build between the block's lines
#   of a copy of docs/benchmarks.md, and refuses a REFERENCE that is not
#   make reference-build's line. Exit 1, saying what differs.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bench-scale: $*"; exit 1; }
cat >"$tmp/x86_64-bench.log" <<'LOG'
@@@ RUN base=6.1 arch=x86_64 suite=bench accel=tcg console=T smp=x
@@@ BEGIN x86_64 notif-rtt
TAP version 13
1..1
# clocksource: tsc
# csv,notif_none,notif_none,5500,134146.3,138903.9,202764.1,1.000
ok 1 notif_none
@@@ END x86_64 notif-rtt status=0
@@@ BEGIN x86_64 agent-scale
TAP version 13
1..2
# 20 binds per container under load, tcp:80; kernel.threads-max 3900, kernel.pid_max 4096, RLIMIT_NOFILE 4096, MemTotal 482000 kB
# manager: agent-scale
# scale,10,served,10,rss_kb,1536,fds,16,threads,42,mem_used_kb,40960
# scale,10,binds,200,p50_us,491.3,p99_us,1717.7,max_us,1800.0,seconds,0.01
# scale,10,restart,not measured: after the restart 10 of 10 containers' bind() failed with ENOSYS (their listeners died with the agent: a restart keeps them only through systemd's fd store)
ok 1 containers_10
# scale,100,served,100,rss_kb,5964,fds,106,threads,402,mem_used_kb,-1
# scale,100,binds,2000,p50_us,511.3,p99_us,4506.8,max_us,8870.7,seconds,0.04
# scale,100,restart,not measured: after the restart 100 of 100 containers' bind() failed with ENOSYS (their listeners died with the agent: a restart keeps them only through systemd's fd store)
ok 2 containers_100
@@@ END x86_64 agent-scale status=0
@@@ DONE
LOG
cat >"$tmp/x86_64-bench-systemd.log" <<'LOG'
@@@ RUN base=6.1 arch=x86_64 suite=bench-systemd accel=tcg console=T smp=x
@@@ BEGIN x86_64 agent-scale
TAP version 13
1..1
# 20 binds per container under load, tcp:80; kernel.threads-max 3900, kernel.pid_max 4096, RLIMIT_NOFILE 4096, MemTotal 990000 kB
# manager: systemd
# scale,10,served,10,rss_kb,2048,fds,37,threads,42,mem_used_kb,102400
# scale,10,binds,200,p50_us,491.3,p99_us,1717.7,max_us,1800.0,seconds,0.01
# scale,10,restart_ms,812.5
ok 1 containers_10
@@@ END x86_64 agent-scale status=0
@@@ DONE
LOG
awk -v csv="$tmp/c.csv" -v scale="$tmp/s.csv" -f "$TOP/boot/console.awk" -f "$TOP/boot/bench/tables.awk" \
	"$tmp/x86_64-bench.log" "$tmp/x86_64-bench-systemd.log" >"$tmp/out"
grep -qxF '| x86_64/x86_64 | systemd | 10 | 10 | 2.0 MiB | 37 | 42 | 100.0 MiB | 491 us | 1718 us | 1800 us | 200 in 0.01 s | 812 ms |' "$tmp/out" ||
	fail "no markdown row for 10 containers under systemd with its restart time: $(grep '^| x86' "$tmp/out" || echo none)"
grep -qF "| x86_64/x86_64 | agent-scale | 10 | 10 | 1.5 MiB | 16 | 42 | 40.0 MiB | 491 us | 1718 us | 1800 us | 200 in 0.01 s | not measured: after the restart 10 of 10" "$tmp/out" ||
	fail "the row for 10 containers without systemd is not a row of its own saying the restart was not measured: $(grep '^| x86' "$tmp/out" || echo none)"
grep -qF "| x86_64/x86_64 | agent-scale | 100 | 100 | 5.8 MiB | 106 | 402 | ? | 511 us |" "$tmp/out" ||
	fail "the row for 100 containers does not say '?' for a memory figure the guest did not have"
if [ "$(wc -l <"$tmp/s.csv")" -ne 4 ] ||
	! grep -q '^x86_64,x86_64,tcg,systemd,10,10,2048,37,42,102400,200,491.3,1717.7,1800.0,0.01,812.5 ms$' "$tmp/s.csv"; then
	fail "the CSV is not its header and one row per manager and size: $(cat "$tmp/s.csv")"
fi
[ "$(head -n 1 "$tmp/s.csv")" = arch,abi,accel,manager,containers,served,rss_kb,fds,threads,mem_used_kb,binds,p50_us,p99_us,max_us,load_s,restart ] ||
	fail "the CSV's first line is not its header (tables.awk writes it): $(head -n 1 "$tmp/s.csv")"
cp "$TOP/docs/benchmarks.md" "$tmp/doc.md"
ref='reference build: 176 s (linux 6.1.192 x86_64 tinyconfig bzImage, gcc 12.2.0, -j2, CPU)'
sh "$TOP/boot/bench/scale-doc.sh" -o "$tmp/doc.md" "$ref" "$tmp/x86_64-bench.log" "$tmp/x86_64-bench-systemd.log" >/dev/null
sed -n '/^<!-- bench: agent-scale -->$/,/^<!-- \/bench: agent-scale -->$/p' "$tmp/doc.md" >"$tmp/block"
grep -qxF "$ref." "$tmp/block" || fail "the block lacks the reference build"
grep -q '^The machine: .*,$' "$tmp/block" || fail "the block lacks the machine"
grep -qxF '| x86_64/x86_64 | systemd | 10 | 10 | 2.0 MiB | 37 | 42 | 100.0 MiB | 491 us | 1718 us | 1800 us | 200 in 0.01 s | 812 ms |' "$tmp/block" ||
	fail "the block lacks the table"
grep -qF '`base=6.1 arch=x86_64 suite=bench accel=tcg`; agent-scale: 20 binds per container under load' "$tmp/block" ||
	fail "the block lacks the guest's RUN line and agent-scale's header"
# Only the block changed.
sed '/^<!-- bench: agent-scale -->$/,/^<!-- \/bench: agent-scale -->$/d' "$tmp/doc.md" >"$tmp/a"
sed '/^<!-- bench: agent-scale -->$/,/^<!-- \/bench: agent-scale -->$/d' "$TOP/docs/benchmarks.md" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "scale-doc.sh changed docs/benchmarks.md outside its block"
if sh "$TOP/boot/bench/scale-doc.sh" -o "$tmp/doc.md" "176 s" "$tmp/x86_64-bench.log" 2>"$tmp/err"; then
	fail "scale-doc.sh took a REFERENCE that is not make reference-build's line"
fi
echo "agent-scale's rows: one table, one CSV row per manager and size, and the doc block with the machine and the reference build"
