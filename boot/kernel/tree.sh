#!/bin/sh
# Make $BCACHE/linux: the base's Debian linux-source tree (boot/base/BASE),
# committed once as the tag 'pristine', with the base's series applied by
# 'git am' on branch 'series'.
# The series is re-applied only when a patch or the series file changed.
#
#   boot/kernel/tree.sh            the patched tree
#   boot/kernel/tree.sh worktree DIR REV
#                           a second work tree of the same repo at REV
#   boot/kernel/tree.sh am DIR PATCH
#                           apply one patch there
set -eu
. "$(dirname "$0")/../lib.sh"

export GIT_AUTHOR_NAME=pidfd-getfd GIT_AUTHOR_EMAIL=pidfd-getfd@localhost
export GIT_COMMITTER_NAME=pidfd-getfd GIT_COMMITTER_EMAIL=pidfd-getfd@localhost
export GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z'
git() { command git -C "$KSRC" -c core.autocrlf=false -c gc.auto=0 "$@"; }

extract() {
	[ -f "$TARBALL" ] || die "$TARBALL missing (run 'make deps')"
	step "extracting $(basename "$TARBALL") into $KSRC"
	rm -rf "$KSRC.tmp"
	mkdir -p "$KSRC.tmp"
	tar -C "$KSRC.tmp" --strip-components=1 -xf "$TARBALL"
	command git -C "$KSRC.tmp" init -q -b debian
	# The tarball's ignore rules would hide files from 'git add'.
	command git -C "$KSRC.tmp" add -f -A .
	command git -C "$KSRC.tmp" -c user.name=x -c user.email=x@x commit -q -m "Debian $(basename "$TARBALL")"
	command git -C "$KSRC.tmp" tag pristine
	mv "$KSRC.tmp" "$KSRC"
	done_step "pristine tree committed"
}

stamp() {
	(cd "$PATCHES" && for s in $(series_dirs); do cat "$s/series"; done &&
		cat $(series_patches)) | sha256sum | cut -d' ' -f1
}

apply() {
	want=$(stamp)
	[ "$(cat "$BCACHE/series.stamp" 2>/dev/null)" = "$want" ] && return 0
	step "applying $(series_dirs | sed "s|^|$SERIES/|; s|/\.\$||; s|\$|/series|" | tr '\n' ' ')($(series_patches | wc -l) patches)"
	rm -f "$BCACHE/series.stamp"
	# Apply in a scratch work tree, then move the build tree to the result:
	# git touches only the files that differ, so builds stay incremental.
	scratch=$BCACHE/wt/apply
	worktree "$scratch" pristine
	for p in $(series_patches); do
		[ -f "$PATCHES/$p" ] || die "$SERIES/series names $p, which does not exist"
		if ! command git -C "$scratch" am -q --whitespace=error-all "$PATCHES/$p" >"$LOGS/git-am.log" 2>&1; then
			cat "$LOGS/git-am.log" >&2
			command git -C "$scratch" am --abort >/dev/null 2>&1 || true
			die "patch $p does not apply with git am (log: $LOGS/git-am.log)"
		fi
	done
	git checkout -q -f -B series "$(command git -C "$scratch" rev-parse HEAD)"
	echo "$want" >"$BCACHE/series.stamp"
	done_step "series applied: $(git rev-parse --short HEAD)"
}

# worktree DIR REV: a second work tree of the repo at REV (detached).
worktree() {
	if [ ! -d "$1" ]; then
		git worktree prune
		git worktree add -q --detach "$1" "$2"
	fi
	command git -C "$1" am --abort >/dev/null 2>&1 || true
	command git -C "$1" checkout -q -f --detach "$2"
}

mkdir -p "$BCACHE" "$LOGS"
[ -d "$KSRC/.git" ] || extract
case "${1:-}" in
'') apply ;;
worktree) worktree "$2" "$3" ;;
am)
	# am DIR PATCH: apply one patch in a work tree made by 'worktree'.
	command git -C "$2" am -q --whitespace=error-all "$3" || {
		command git -C "$2" am --abort >/dev/null 2>&1 || true
		die "$(basename "$3") does not apply with git am in $2"
	}
	;;
*) die "usage: $0 [worktree DIR REV | am DIR PATCH]" ;;
esac
