#!/bin/sh
# boot/kernel/config.sh verify CONFIG FRAGMENT...
#   Fail, naming each one, if an option a fragment asks for is not what the
#   final CONFIG has (merge_config.sh drops options with unmet dependencies
#   without failing).
set -eu
. "$(dirname "$0")/../lib.sh"

verify() {
	config=$1
	shift
	missing=$(sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' "$@" |
		while IFS= read -r want; do
			opt=${want%%=*}
			case $want in
			*=n) ! grep -q "^$opt=" "$config" || echo "$opt (wanted unset)" ;;
			*) grep -qxF "$want" "$config" || echo "$opt (wanted ${want#*=}, got $(sed -n "s/^$opt=//p" "$config" | grep . || echo unset))" ;;
			esac
		done)
	[ -z "$missing" ] && return 0
	printf '%s\n' "$missing" | sed 's/^/    /' >&2
	die "$(printf '%s\n' "$missing" | wc -l) requested config option(s) not in $config: $(printf '%s\n' "$missing" | cut -d' ' -f1 | tr '\n' ' ')"
}

case "${1:-}" in
verify) shift; verify "$@" ;;
*) die "usage: $0 verify CONFIG FRAGMENT..." ;;
esac
