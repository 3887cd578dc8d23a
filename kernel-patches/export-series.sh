#!/bin/sh
# kernel-patches/export-series.sh KERNEL-GIT-DIR [BASE]
#   For maintainers: rewrite kernel-patches/ from the commits BASE..HEAD
#   (default BASE: pristine) of a kernel work tree, keeping the subject and
#   text of the current cover letter, and the series file in commit order.
set -eu
. "$(dirname "$0")/../boot/lib.sh"
dir=${1:?usage: $0 KERNEL-GIT-DIR [BASE]}
base=${2:-pristine}
out=$TOP/kernel-patches
old=$(mktemp)
cp "$out/0000-cover-letter.patch" "$old"
rm -f "$out"/0*.patch
# The cover letter's From: is the series' author, not whoever runs this.
git -C "$dir" -c user.name="$(git -C "$dir" log -1 --format=%an)" \
	-c user.email="$(git -C "$dir" log -1 --format=%ae)" format-patch -q --cover-letter --no-signature --zero-commit -o "$out" "$base..HEAD"
python3 - "$old" "$out/0000-cover-letter.patch" <<'PY'
import re, sys
old, new = open(sys.argv[1]).read(), open(sys.argv[2]).read()
subj = re.search(r'^Subject: \[PATCH 0+/\d+\] (.*)$', old, re.M).group(1)
start = old.index('\n\n', old.index('Subject:')) + 2
blurb = old[start:re.search(r'^\S.* \(\d+\):$', old, re.M).start()]
new = new.replace('*** SUBJECT HERE ***', subj).replace('*** BLURB HERE ***\n\n', blurb)
new = re.sub(r'^Date: .*$', re.search(r'^Date: .*$', old, re.M).group(0), new, count=1, flags=re.M)
open(sys.argv[2], 'w').write(new)
PY
rm -f "$old"
{
	echo "# PIDFD_IOCTL_GETFD, against Debian linux-source-6.1. Applied in this order by"
	echo "# boot/kernel/tree.sh (git am) and by 'quilt push -a'."
	(cd "$out" && ls 0*.patch | grep -v '^0000-cover-letter.patch$')
} >"$out/series"
step "kernel-patches/ rewritten from $dir ($base..HEAD)"
