#!/bin/bash
# Builds a tiny AMI-style image set for the libvirt end-to-end tests, from
# Debian packages only (no internet but the package registry):
#   vmlinuz            the Debian cloud kernel
#   initramfs.cpio.gz  busybox init printing GUEST-BOOT-OK on the serial
#                      console, powering off on the ACPI power button; with
#                      a config-2 drive (an iso9660 cdrom or a vfat disk) it
#                      prints the drive's uuid, user_data and first
#                      personality file (CONFIG-DRIVE lines); with a NIC it
#                      takes a DHCP lease on it (GUEST-DHCP), prints the uuid
#                      in the metadata service's meta_data.json
#                      (GUEST-METADATA) and then every NIC hot-plugged in or
#                      out (GUEST-NIC-ADDED/REMOVED); then it runs a shell on
#                      the serial port
#   disk.qcow2         a 64 MiB disk with a marker at its start
# Usage: build_guest_images.sh OUTPUT_DIR   (OUTPUT_DIR must not exist yet)
set -euo pipefail
OUT=$1
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # apt-get download runs as _apt
APT="apt-get -o DPkg::Lock::Timeout=600 -qq"
cd "$WORK"

KPKG=$(apt-cache depends linux-image-cloud-amd64 | awk '/Depends:/{print $2; exit}')
if [ -z "$KPKG" ]; then
    $APT update
    KPKG=$(apt-cache depends linux-image-cloud-amd64 | awk '/Depends:/{print $2; exit}')
fi
$APT download "$KPKG" busybox-static
mkdir kroot bb
dpkg-deb -x "${KPKG}"_*.deb kroot
dpkg-deb -x busybox-static_*.deb bb
KV=$(ls kroot/lib/modules)
MODS=kroot/lib/modules/$KV/kernel

R=$WORK/initramfs
mkdir -p "$R"/bin "$R"/proc "$R"/sys "$R"/dev "$R"/etc/acpi/PWRF "$R"/mods "$R"/tmp
cp bb/bin/busybox "$R"/bin/busybox
ln -s busybox "$R"/bin/sh
mknod -m 600 "$R"/dev/console c 5 1
mknod -m 666 "$R"/dev/null c 1 3
# In dependency order, numbered so that init's `ls` loads them in that order
# (a module loaded before its dependencies floods the console with errors).
i=10
for m in drivers/virtio/virtio drivers/virtio/virtio_ring \
         drivers/virtio/virtio_pci_legacy_dev drivers/virtio/virtio_pci_modern_dev \
         drivers/virtio/virtio_pci drivers/block/virtio_blk drivers/acpi/button \
         drivers/input/evdev drivers/scsi/scsi_common drivers/scsi/scsi_mod \
         drivers/ata/libata drivers/ata/ata_piix drivers/cdrom/cdrom \
         drivers/scsi/sr_mod fs/isofs/isofs fs/nls/nls_cp437 fs/nls/nls_ascii \
         fs/nls/nls_utf8 fs/fat/fat fs/fat/vfat net/core/failover \
         drivers/net/net_failover drivers/net/virtio_net; do
    cp "$MODS/$m.ko" "$R/mods/$i-${m##*/}.ko"
    i=$((i+1))
done
cat > "$R"/etc/acpi/PWRF/00000080 <<'EOS'
#!/bin/sh
echo "GUEST-ACPI-POWERBUTTON -> poweroff" > /dev/console
sync; poweroff -f
EOS
chmod +x "$R"/etc/acpi/PWRF/00000080
# udhcpc's lease handler: the address, the routes of option 121 (Neutron's
# route to 169.254.169.254 and the default one) or else the router.
cat > "$R"/etc/udhcpc.script <<'EOS'
#!/bin/sh
case "$1" in
  bound|renew)
    ip addr flush dev "$interface"
    ip addr add "$ip/$mask" dev "$interface"
    if [ -n "$staticroutes" ]; then
      set -- $staticroutes
      while [ $# -ge 2 ]; do ip route replace "$1" via "$2" dev "$interface"; shift 2; done
    elif [ -n "$router" ]; then
      ip route replace default via "${router%% *}" dev "$interface"
    fi
    echo "GUEST-DHCP $interface $ip" > /dev/console
    ;;
esac
EOS
chmod +x "$R"/etc/udhcpc.script
cat > "$R"/init <<'EOS'
#!/bin/sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
todo=$(ls /mods/*.ko); n=0
# insmod in dependency order: retry until nothing more loads
while [ -n "$todo" ] && [ $n -lt 10 ]; do
  left=""; for m in $todo; do insmod $m 2>/dev/null || left="$left $m"; done
  todo=$left; n=$((n+1))
done
sleep 0.3
# The ACPI power button powers off, so a clean shutdown works.
for e in /sys/class/input/event*; do
  if grep -q "Power Button" $e/device/name 2>/dev/null; then
    ( head -c 24 /dev/input/${e##*/} >/dev/null; /etc/acpi/PWRF/00000080 ) &
  fi
done
size=0; [ -b /dev/vda ] && size=$(cat /sys/block/vda/size)
echo "GUEST-BOOT-OK uptime=$(cut -d' ' -f1 /proc/uptime) vda_sectors=$size"
# A config drive is a cdrom or (vfat) a disk labelled config-2: give the
# IDE probe a moment.
n=0; cd_dev=""
while [ -z "$cd_dev" ] && [ $n -lt 10 ]; do
  cd_dev=$(findfs LABEL=config-2 2>/dev/null) || { sleep 0.5; n=$((n+1)); }
done
mkdir -p /mnt/config
fs=""
for t in iso9660 vfat; do
  [ -n "$cd_dev" ] && mount -t $t -o ro "$cd_dev" /mnt/config 2>/dev/null && fs=$t && break
done
if [ -n "$fs" ]; then
  md=/mnt/config/openstack/latest
  uuid=$(sed -n 's/.*"uuid": "\([^"]*\)".*/\1/p' $md/meta_data.json)
  echo "CONFIG-DRIVE label=config-2 device=$cd_dev uuid=$uuid"
  echo "CONFIG-DRIVE fs=$fs"
  [ -f $md/user_data ] && echo "CONFIG-DRIVE user_data=$(cat $md/user_data)"
  f=/mnt/config/openstack/content/0000
  [ -f $f ] && echo "CONFIG-DRIVE file0=$(cat $f)"
else
  echo "CONFIG-DRIVE none"
fi
# Networking: a lease on the first NIC, the metadata service, then a
# watcher reporting NICs hot-plugged in and out.
nic=$(ls /sys/class/net | grep -v '^lo$' | head -1)
if [ -n "$nic" ]; then
  ip link set lo up; ip link set "$nic" up
  udhcpc -i "$nic" -n -q -t 20 -T 2 -O staticroutes -s /etc/udhcpc.script \
    >/dev/null 2>&1 || echo "GUEST-DHCP $nic failed"
  uuid=""; n=0
  while [ -z "$uuid" ] && [ $n -lt 15 ]; do
    uuid=$(printf 'GET /openstack/latest/meta_data.json HTTP/1.0\r\nHost: 169.254.169.254\r\n\r\n' \
           | nc -w 10 169.254.169.254 80 2>/dev/null \
           | sed -n 's/.*"uuid": "\([^"]*\)".*/\1/p')
    [ -z "$uuid" ] && sleep 2; n=$((n+1))
  done
  echo "GUEST-METADATA uuid=$uuid"
  ( known=$(echo $(ls /sys/class/net))
    while true; do
      sleep 1; now=$(echo $(ls /sys/class/net))
      for i in $now; do case " $known " in *" $i "*) ;; *)
        echo "GUEST-NIC-ADDED $i $(cat /sys/class/net/$i/address)" > /dev/console;; esac; done
      for i in $known; do case " $now " in *" $i "*) ;; *)
        echo "GUEST-NIC-REMOVED $i" > /dev/console;; esac; done
      known=$now
    done ) &
fi
# An interactive shell on the serial port (a serial console's keystrokes
# reach it; without one attached it waits).
while true; do setsid sh -c 'exec sh -i </dev/ttyS0 >/dev/ttyS0 2>&1'; sleep 5; done
EOS
chmod +x "$R"/init

mkdir -p "$OUT.tmp"
cp "kroot/boot/vmlinuz-$KV" "$OUT.tmp/vmlinuz"
(cd "$R" && find . | "$WORK"/bb/bin/busybox cpio -o -H newc 2>/dev/null | gzip -9) \
    > "$OUT.tmp/initramfs.cpio.gz"
printf 'BASE-IMAGE-MARKER' > disk.raw
truncate -s 64M disk.raw
qemu-img convert -f raw -O qcow2 disk.raw "$OUT.tmp/disk.qcow2"
echo "$KPKG" > "$OUT.tmp/kernel-package"
mv "$OUT.tmp" "$OUT"
