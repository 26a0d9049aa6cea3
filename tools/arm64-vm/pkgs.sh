# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# The arm64 guest's parts from Debian, shared by tools/arm64-vm.sh and
# tools/lava-run.sh: the host packages they need, arm64 packages fetched
# with apt-get download and unpacked once under $cache, the Debian kernel
# package, the arm64 libraries a binary needs, and the ramdisk's common
# files. The caller defines top (the checkout), cache, say and die.

# Installs those of the Debian packages PKG... that are missing; without
# root, stops naming them. A first argument --no-install-recommends is
# passed on to apt-get install.
pkgs_install_missing() {
	local opts=() p need=()
	if [ "${1:-}" = --no-install-recommends ]; then
		opts=("$1")
		shift
	fi
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			need+=("$p")
	done
	[ ${#need[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] ||
		die "missing Debian packages: ${need[*]} (apt-get install -y ${opts[*]:+${opts[*]} }${need[*]})"
	say "installing: ${need[*]}"
	apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${opts[@]}" "${need[@]}" >&2
}

# An arm64 package unpacked under $cache/<name>_<version>/ (once).
fetch_arm64_pkg() {
	local name=$1 ver dir deb
	ver=$(apt-cache policy "$name:arm64" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		# offline, or no apt lists: use what is cached
		dir=$(find "$cache" -maxdepth 1 -name "${name}_*" -type d 2>/dev/null | sort | tail -n 1)
		[ -n "$dir" ] && [ -f "$dir/.done" ] || die "no arm64 package '$name' (run apt-get update; is arm64 a dpkg architecture?)"
		echo "$dir"
		return 0
	fi
	dir=$cache/${name}_${ver//:/%3a}
	if [ ! -f "$dir/.done" ]; then
		say "fetching $name:arm64 $ver"
		rm -rf "$dir" && mkdir -p "$dir/dl"
		# apt's sandbox user cannot write root's folders: let it
		chmod 777 "$dir/dl"
		(cd "$dir/dl" && apt-get download -q "$name:arm64=$ver" >&2)
		deb=$(find "$dir/dl" -name '*.deb' | head -n 1)
		[ -n "$deb" ] || die "apt-get download $name:arm64 gave no .deb"
		dpkg-deb -x "$deb" "$dir/root"
		rm -rf "$dir/dl"
		touch "$dir/.done"
	fi
	echo "$dir"
}

# The Debian kernel image package that linux-image-arm64 points to.
debian_kernel_pkg() {
	local p
	p=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*\).*/\1/p' | head -n 1)
	if [ -z "$p" ]; then
		p=$(find "$cache" -maxdepth 1 -name 'linux-image-*-arm64_*' -type d 2>/dev/null |
			sort | tail -n 1)
		p=${p##*/}
		p=${p%%_*}
	fi
	[ -n "$p" ] || die "cannot find the Debian arm64 kernel package (apt-get update first)"
	echo "$p"
}

# The shared libraries a binary needs, found in the arm64 library folders.
LIBDIRS=(/usr/aarch64-linux-gnu/lib /usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu)
resolve_libs() {
	local -A seen=()
	local queue=("$1") f n d found
	while [ ${#queue[@]} -gt 0 ]; do
		f=${queue[0]}
		queue=("${queue[@]:1}")
		for n in $(aarch64-linux-gnu-readelf -d "$f" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p'); do
			[ -n "${seen[$n]:-}" ] && continue
			found=
			for d in "${LIBDIRS[@]}"; do
				[ -e "$d/$n" ] && { found=$d/$n; break; }
			done
			[ -n "$found" ] || die "$f needs $n, which no arm64 library folder holds"
			seen[$n]=$found
			queue+=("$found")
			echo "$found"
		done
	done
}

# The files every arm64 ramdisk holds, laid under ROOT: busybox (from
# busybox-static:arm64), INIT as /init with guest-setup.sh beside it in
# /etc (the mounts both inits share), and PTBENCH with its libraries.
guest_root_base() {
	local root=$1 ptbench=$2 init=$3 bb libs lib
	bb=$(fetch_arm64_pkg busybox-static)/root/bin/busybox
	[ -x "$bb" ] || die "no busybox in the busybox-static:arm64 package"
	mkdir -p "$root"/{bin,sbin,lib/aarch64-linux-gnu,etc}
	cp "$bb" "$root/bin/busybox"
	cp "$init" "$root/init"
	chmod 755 "$root/init"
	cp "$top/tools/arm64-vm/guest-setup.sh" "$root/etc/guest-setup.sh"
	cp "$ptbench" "$root/bin/ptbench"
	libs=$(resolve_libs "$ptbench") # not <(...): a missing library must stop here
	for lib in $libs; do
		case ${lib##*/} in
		ld-linux-aarch64.so.1) cp -L "$lib" "$root/lib/ld-linux-aarch64.so.1" ;;
		*) cp -L "$lib" "$root/lib/aarch64-linux-gnu/" ;;
		esac
	done
	# the dynamic loader is named in every arm64 binary even when not NEEDED
	[ -e "$root/lib/ld-linux-aarch64.so.1" ] ||
		cp -L /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 "$root/lib/"
}
