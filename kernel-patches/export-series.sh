#!/bin/sh
# kernel-patches/export-series.sh KERNEL-GIT-DIR FROM TO [DIR]
#   For maintainers: rewrite one series of the base (PIDFD_GETFD_BASE, as
#   'make BASE=...' sets it) from the commits FROM..TO of a kernel work tree.
#   DIR is the series' folder under the base's series folder: '.' (the
#   default) for PIDFD_IOCTL_GETFD itself, 'samples' for the seccomp samples
#   that apply on top of it (boot/lib.sh series_dirs).  The subject, its
#   version ([PATCH vN 0/M]: every patch gets "PATCH vN"), the To: and Cc:
#   headers and the text of the current cover letter and the header comment
#   of the series file are kept; the series file lists the patches in commit
#   order.  The cover letter ends with base-commit: the tree's tag
#   'pristine' (boot/kernel/tree.sh), or FROM without it, and for a series
#   on top, the prerequisite-patch-id of each patch between the two.
set -eu
. "$(dirname "$0")/../boot/lib.sh"
usage="usage: $0 KERNEL-GIT-DIR FROM TO [DIR]"
dir=${1:?$usage} from=${2:?$usage} to=${3:?$usage}
out=$PATCHES/${4:-.}
old=$(mktemp)
head=$(mktemp)
cp "$out/0000-cover-letter.patch" "$old"
grep '^#' "$out/series" >"$head"
version=$(sed -n 's/^Subject: \[PATCH v\([0-9]*\) 0*\/[0-9]*\] .*/\1/p' "$old")
base=$from
git -C "$dir" rev-parse -q --verify pristine >/dev/null && base=pristine
rm -f "$out"/0*.patch
# The cover letter's From: is the series' author, not whoever runs this.
git -C "$dir" -c user.name="$(git -C "$dir" log -1 --format=%an "$to" --)" \
	-c user.email="$(git -C "$dir" log -1 --format=%ae "$to" --)" format-patch -q --cover-letter \
	${version:+--subject-prefix="PATCH v$version"} --base="$base" \
	--no-signature --zero-commit -o "$out" "$from..$to"
python3 - "$old" "$out/0000-cover-letter.patch" <<'PY'
import re, sys
old, new = open(sys.argv[1]).read(), open(sys.argv[2]).read()
subj = re.search(r'^Subject: \[PATCH(?: v\d+)? 0+/\d+\] (.*)$', old, re.M).group(1)
start = old.index('\n\n', old.index('Subject:')) + 2
blurb = old[start:re.search(r'^\S.* \(\d+\):$', old, re.M).start()]
# To: and Cc:, with their continuation lines, go after the Subject: line.
heads = old[:start]
addr = ''.join(re.findall(r'^(?:To|Cc):.*\n(?:[ \t].*\n)*', heads, re.M))
new = new.replace('*** SUBJECT HERE ***', subj).replace('*** BLURB HERE ***\n\n', blurb)
new = re.sub(r'^(Subject: .*\n)', lambda m: m.group(1) + addr, new, count=1, flags=re.M)
new = re.sub(r'^Date: .*$', re.search(r'^Date: .*$', old, re.M).group(0), new, count=1, flags=re.M)
open(sys.argv[2], 'w').write(new)
PY
{
	cat "$head"
	(cd "$out" && ls 0*.patch | grep -v '^0000-cover-letter.patch$')
} >"$out/series"
rm -f "$old" "$head"
step "$out rewritten from $dir ($from..$to)"
