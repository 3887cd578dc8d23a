# shellcheck shell=sh
# What the image layers share (boot/image/oci-layer.sh, systemd-layer.sh;
# sourced after boot/lib.sh): a host program's libraries, the directories
# above a path, and packing a layer onto the image below it.

# layer_libs BIN...: the shared objects BIN... need, one path a line: ldd
# prints every object the loader maps, the transitive closure, each at the
# path the loader found it under; the loader itself is the line without
# '=>'. glibc dlopen()s libgcc_s for pthread_cancel()/pthread_exit()
# unwinding, which ldd cannot see. ldd runs the host's loader: BIN... must
# be of the host's arch. Fails naming a library the host lacks.
layer_libs() {
	_libs=$(for _b in "$@"; do
		ldd "$_b" || die "ldd $_b failed"
	done | awk '
		$2 == "=>" && $3 ~ /^\// { print $3; next }
		$2 == "=>" && $3 == "not" { print "MISSING " $1; next }
		$1 ~ /^\// { print $1 }' | sort -u)
	case $_libs in *MISSING*) die "a library of $* is missing on the host: $(echo "$_libs" | grep MISSING)" ;; esac
	_gcc_s=$(dirname "$(echo "$_libs" | grep '/libc\.so\.6$')")/libgcc_s.so.1
	[ -f "$_gcc_s" ] && _libs=$(printf '%s\n%s\n' "$_libs" "$_gcc_s" | sort -u)
	echo "$_libs"
}

# layer_dirs PATH...: a gen_init_cpio "dir" line, mode 0755, for each
# directory above each PATH, parents first, each once (one the image below
# has already is only set to 0755 again).
layer_dirs() {
	for _p in "$@"; do
		_d=
		for _c in $(dirname "$_p" | tr / ' '); do
			_d=$_d/$_c
			echo "dir $_d 0755 0 0"
		done
	done | awk '!seen[$0]++'
}

# layer_pack LIST BELOW OUT: OUT is the image BELOW (with its .content)
# with the gen_init_cpio list LIST packed as a second newc archive after
# it (the kernel unpacks one after the other; a later entry replaces an
# earlier one of the same path). OUT.content is BELOW's content hash and
# LIST's entries with each file's hash in place of its path, hashed, as
# initramfs.sh does: boot/run.sh keys a boot on it. Removed first, moved
# into place last. Says what it packed.
layer_pack() {
	_list=$1 _below=$2 _out=$3
	[ -f "$_below" ] && [ -f "$_below.content" ] || die "no $_below (or its .content)"
	rm -f "$_out.content"
	{
		cat "$_below.content"
		list_content "$_list"
	} | sha256sum | cut -d' ' -f1 >"$_out.content.tmp"
	"$BCACHE/tools/gen_init_cpio" -t 0 "$_list" >"$_list.cpio" || die "gen_init_cpio $_list failed"
	cat "$_below" "$_list.cpio" >"$_out.tmp"
	mv "$_out.tmp" "$_out"
	mv "$_out.content.tmp" "$_out.content"
	done_step "initramfs $_out ($(($(stat -c %s "$_list.cpio") / 1024)) KiB layer, $(($(stat -c %s "$_out") / 1024)) KiB in all)"
}
