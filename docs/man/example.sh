#!/bin/sh
# docs/man/example.sh MANPAGE
#   Print the C program between '.\" SRC BEGIN' and '.\" SRC END' in MANPAGE
#   (the man-pages convention), with the roff escapes undone, so that the
#   example is compiled and run exactly as the page shows it.
set -eu
sed -n '/^\.\\" SRC BEGIN/,/^\.\\" SRC END/p' "${1:?usage: $0 MANPAGE}" |
	sed -e '/^\.\\" SRC /d' -e '/^\.EX$/d' -e '/^\.EE$/d' \
		-e 's/^\\&$//' -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g'
