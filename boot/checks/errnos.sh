# shellcheck shell=sh
# The errno table's checks that docs.sh and lint.sh share (sourced after
# boot/lib.sh): docs.sh holds every base's documents to docs/errnos, lint.sh
# its own base's cover letter, so that make check-lint BASE=... fails on a
# cover letter that drops a row too.

# The errno table, docs/errnos: the man page's ERRORS, each base's
# userspace-api page and cover letter state its rows, each row's
# selftest cases assert its errno, and the selftests assert no errno
# that no row names a case for. A document's rows and what counts as the
# same condition: boot/checks/errnos.awk.
ERRNOS=$TOP/docs/errnos
errnos() { awk -f "$TOP/boot/checks/errnos.awk" "$@"; }

# base_conf BASE VAR: VAR as boot/base/BASE/base.conf sets it
base_conf() {
	# shellcheck disable=SC1090
	(unset "$2" && . "$TOP/boot/base/$1/base.conf" && eval "printf '%s\n' \"\${$2:-}\"")
}

# errno_rows_match WHAT DOC FILE [BASE]: FILE's rows (errnos.awk doc=DOC)
# are the rows of docs/errnos for DOC (of BASE), one for one.
errno_rows_match() {
	errnos -v doc=table -v of="$2" -v base="${4:-}" "$ERRNOS" >"$LOGS/errnos-table" || return 1
	errnos -v doc="$2" "$3" >"$LOGS/errnos-doc" || return 1
	sort -u -o "$LOGS/errnos-table" "$LOGS/errnos-table"
	sort -u -o "$LOGS/errnos-doc" "$LOGS/errnos-doc"
	echo "$1: $(grep -c . "$LOGS/errnos-doc") rows; docs/errnos has $(grep -c . "$LOGS/errnos-table") for it"
	[ -s "$LOGS/errnos-doc" ] || { echo "$1: no errors list found ($3)"; return 1; }
	diff "$LOGS/errnos-table" "$LOGS/errnos-doc" |
		sed -n -e "s|^< |missing from $1: |p" -e "s|^> |in $1, not in docs/errnos: |p"
	cmp -s "$LOGS/errnos-table" "$LOGS/errnos-doc"
}

# The cover letter of BASE's series.
cover_rows_match() { # BASE
	c=$(base_conf "$1" SERIES)/0000-cover-letter.patch
	errno_rows_match "$c" cover "$TOP/$c" "$1"
}
