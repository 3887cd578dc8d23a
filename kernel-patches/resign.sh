#!/bin/sh
# kernel-patches/resign.sh KERNEL-GIT-DIR [BASE]
#   For the person who posts a series: in a kernel work tree where the
#   series was applied with git am on BASE (default: pristine), replace the
#   project's placeholder sign-off with the poster's own (git's user.name
#   and user.email there), and make the poster the author of the patches
#   the placeholder wrote.  Other authors and their tags (the upstream
#   backports) stay; the poster's sign-off is added last to those.
set -eu
placeholder='pidfd-getfd developers <pidfd-getfd@localhost>'
if [ "${1:-}" = --amend-head ]; then	# run by the rebase below, per commit
	msg=$(git log -1 --format=%B | grep -vxF "Signed-off-by: $placeholder")
	reset=
	[ "$(git log -1 --format='%an <%ae>')" != "$placeholder" ] || reset=--reset-author
	printf '%s\n' "$msg" | git commit -q --amend $reset --signoff -F -
	exit 0
fi
dir=${1:?usage: $0 KERNEL-GIT-DIR [BASE]}
base=${2:-pristine}
me="$(git -C "$dir" config user.name || true) <$(git -C "$dir" config user.email || true)>"
case $me in "$placeholder" | " <"*) echo "set your own git user.name and user.email in $dir first" >&2; exit 1 ;; esac
git -C "$dir" rebase -q "$base" --exec "sh '$(cd "$(dirname "$0")" && pwd)/$(basename "$0")' --amend-head"
git -C "$dir" log --format='%h %an: %s%n    %(trailers:key=Signed-off-by,separator=%x2C )' "$base..HEAD"
