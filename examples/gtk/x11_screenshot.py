"""Grabs the top-left WIDTH x HEIGHT pixels of the X screen ($DISPLAY) with xwd and writes them as a PNG.

Standard library only: xwd (Debian's x11-apps) dumps the screen in its XWD format, which is read here (TrueColor,
24 or 32 bits a pixel, as Xvfb -screen 0 WxHx24 gives) and written out with zlib.
    python3 x11_screenshot.py OUT.png WIDTH HEIGHT
"""
import struct
import subprocess
import sys
import zlib


def grab(width, height):
    """RGB rows (bytes) of the screen's top-left corner."""
    dump = subprocess.run(["xwd", "-root", "-silent"], check=True, capture_output=True).stdout
    fields = struct.unpack(">25I", dump[:100])
    header_size, depth, screen_width, screen_height = fields[0], fields[3], fields[4], fields[5]
    byte_order, bits_per_pixel, bytes_per_line = fields[7], fields[11], fields[12]
    masks = fields[14:17]
    colors = fields[19]
    if bits_per_pixel not in (24, 32) or depth < 24:
        raise ValueError(f"expected a 24-bit TrueColor screen, got depth {depth} at {bits_per_pixel} bits a pixel")
    width, height = min(width, screen_width), min(height, screen_height)
    pixels = dump[header_size + 12 * colors:]
    step = bits_per_pixel // 8
    shifts = [(mask & -mask).bit_length() - 1 for mask in masks]
    rows = []
    for y in range(height):
        line = pixels[y * bytes_per_line: y * bytes_per_line + step * width]
        row = bytearray()
        for x in range(0, len(line), step):
            value = int.from_bytes(line[x:x + step], "little" if byte_order == 0 else "big")
            row += bytes((value & mask) >> shift for mask, shift in zip(masks, shifts))
        rows.append(bytes(row))
    return width, height, rows


def png(width, height, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def save(path, width, height):
    with open(path, "wb") as out:
        out.write(png(*grab(width, height)))


if __name__ == "__main__":
    save(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
