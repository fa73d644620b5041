"""What a new cloud holds before its first user: DevStack's flavors and an image.

Both are created through the public APIs (our Compute API, Glance's image
API) as the bootstrap admin, exactly as an operator would, and both steps
look before they create, so running them again changes nothing.

The image is tiny and generated here rather than downloaded, so a cloud
starts without network access: a 1 MiB raw disk whose master boot record
prints a line on the serial port and the screen, then halts. Under the fake
driver any bytes would do; under libvirt/QEMU it really boots.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from keystoneauth1 import adapter, session

COMPUTE_MICROVERSION = "2.1"
IMAGE_NAME = "boot-sector"
IMAGE_SIZE = 1024 * 1024
BOOT_MESSAGE = b"nova boot-sector image: booted, halting\r\n"
SECTOR = 512
BOOT_SIGNATURE = b"\x55\xaa"
MBR_LOAD_ADDRESS = 0x7C00
PARTITION_TABLE_AT = 446
PARTITION_TABLE_SIZE = 64


@dataclass(frozen=True)
class FlavorPlan:
    """One public flavor (``id`` as DevStack numbers them)."""

    id: str
    name: str
    ram: int
    disk: int
    vcpus: int


DEVSTACK_FLAVORS: tuple[FlavorPlan, ...] = (
    FlavorPlan("1", "m1.tiny", 512, 1, 1),
    FlavorPlan("2", "m1.small", 2048, 20, 1),
    FlavorPlan("3", "m1.medium", 4096, 40, 2),
    FlavorPlan("4", "m1.large", 8192, 80, 4),
    FlavorPlan("5", "m1.xlarge", 16384, 160, 8),
)


def boot_sector_image() -> bytes:
    """A raw disk image whose MBR prints :data:`BOOT_MESSAGE` and halts.

    16-bit real-mode code, assembled by hand (offsets in the comments): each
    byte of the message goes to COM1 (what a guest's console log records)
    and to the BIOS teletype (the VNC screen).
    """
    prologue = bytes.fromhex(
        "31c0"  # 0: xor ax, ax
        "8ed8"  # 2: mov ds, ax      (the BIOS may enter with any DS)
        "fc"  # 4: cld
        "31db"  # 5: xor bx, bx      (teletype page 0)
        "baf803"  # 7: mov dx, 0x3f8 (COM1)
    )
    message_at = MBR_LOAD_ADDRESS + len(prologue) + 19
    loop = (
        b"\xbe"
        + message_at.to_bytes(2, "little")  # 10: mov si, message
        + bytes.fromhex(
            "b40e"  # 13: mov ah, 0x0e (teletype)
            "ac"  # 15: lodsb
            "84c0"  # 16: test al, al
            "7405"  # 18: jz halt (+5 -> 25)
            "ee"  # 20: out dx, al
            "cd10"  # 21: int 0x10
            "ebf6"  # 23: jmp lodsb (-10 -> 15)
            "fa"  # 25: halt: cli
            "f4"  # 26: hlt
            "ebfd"  # 27: jmp hlt
        )
    )
    code = prologue + loop + BOOT_MESSAGE + b"\x00"
    # One bootable partition over the rest of the disk: image safety checks
    # (Glance's format inspection) reject an MBR that defines none.
    partition = struct.pack(
        "<B3BB3BII",
        0x80,  # bootable
        *(0, 2, 0),  # start CHS: LBA 1
        0x83,  # Linux
        *(0xFE, 0xFF, 0xFF),  # end CHS: "beyond CHS, see LBA"
        1,
        IMAGE_SIZE // SECTOR - 1,
    )
    table = partition.ljust(PARTITION_TABLE_SIZE, b"\x00")
    sector = code.ljust(PARTITION_TABLE_AT, b"\x00") + table + BOOT_SIGNATURE
    return sector.ljust(IMAGE_SIZE, b"\x00")


def create_flavors(
    admin: session.Session,
    compute_url: str,
    flavors: tuple[FlavorPlan, ...] = DEVSTACK_FLAVORS,
) -> list[str]:
    """Create each flavor the Compute API does not know yet; their names."""
    compute = adapter.Adapter(
        admin,
        endpoint_override=compute_url,
        default_microversion=COMPUTE_MICROVERSION,
        service_type="compute",
    )
    existing = {f["id"] for f in compute.get("/flavors").json()["flavors"]}
    created = []
    for flavor in flavors:
        if flavor.id in existing:
            continue
        compute.post(
            "/flavors",
            json={
                "flavor": {
                    "id": flavor.id,
                    "name": flavor.name,
                    "ram": flavor.ram,
                    "disk": flavor.disk,
                    "vcpus": flavor.vcpus,
                }
            },
        )
        created.append(flavor.name)
    return created


def upload_image(
    admin: session.Session, image_url: str, name: str, data: bytes
) -> tuple[str, bool]:
    """The id of public raw image ``name``, uploaded unless it exists;
    and whether it was uploaded now."""
    images = adapter.Adapter(admin, endpoint_override=image_url)
    found = images.get("/v2/images", params={"name": name}).json()["images"]
    active = [image for image in found if image["status"] == "active"]
    if active:
        return active[0]["id"], False
    # An upload interrupted earlier leaves its image behind, not active; two
    # images of one name would make `--image <name>` ambiguous.
    for leftover in found:
        images.delete(f"/v2/images/{leftover['id']}")
    image = images.post(
        "/v2/images",
        json={
            "name": name,
            "disk_format": "raw",
            "container_format": "bare",
            "visibility": "public",
        },
    ).json()
    images.put(
        f"/v2/images/{image['id']}/file",
        data=data,
        headers={"Content-Type": "application/octet-stream"},
    )
    return image["id"], True
