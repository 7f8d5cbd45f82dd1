"""Reading and writing the PNGs the picture tests exchange (pure Python: zlib)."""
import zlib


def read_rgba8(path):
    """(width, height, rows) of an RGBA8 PNG with filter-0 rows (what terakan-scene and
    terakan-fractal write): rows packed, 4 bytes a pixel."""
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', path + ' is not a PNG'
    at, idat, width, height = 8, b'', 0, 0
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], 'big')
        kind = data[at + 4:at + 8]
        body = data[at + 8:at + 8 + length]
        crc = int.from_bytes(data[at + 8 + length:at + 12 + length], 'big')
        assert zlib.crc32(kind + body) == crc, 'bad CRC in ' + path
        if kind == b'IHDR':
            width, height = int.from_bytes(body[:4], 'big'), int.from_bytes(body[4:8], 'big')
            assert body[8:10] == b'\x08\x06', 'not RGBA8'
        elif kind == b'IDAT':
            idat += body
        at += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 4 + 1
    assert len(raw) == height * stride
    assert all(raw[y * stride] == 0 for y in range(height)), 'a row filter other than 0'
    rows = b''.join(raw[y * stride + 1:(y + 1) * stride] for y in range(height))
    return width, height, rows


def write_rgb8(path, width, height, rgb):
    """Writes packed RGB8 rows as a PNG (filter 0, one IDAT)."""
    rows = b''.join(b'\x00' + rgb[y * width * 3:(y + 1) * width * 3] for y in range(height))

    def chunk(kind, body):
        return len(body).to_bytes(4, 'big') + kind + body + zlib.crc32(kind + body).to_bytes(4, 'big')
    header = width.to_bytes(4, 'big') + height.to_bytes(4, 'big') + b'\x08\x02\x00\x00\x00'
    with open(path, 'wb') as out:
        out.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(rows, 9)) +
                  chunk(b'IEND', b''))


def read_rgb8(path, over_black=False):
    """(width, height, rgb) of any 8-bit RGB or RGBA PNG, not interlaced, with any row filters
    (what cairo writes: weston-screenshooter's pictures). Alpha is dropped, or, with
    over_black, each colour is drawn over black (multiplied by its alpha): cairo stores a
    screenshot's translucent pixels divided by their alpha, and this undoes it."""
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', path + ' is not a PNG'
    at, idat, width, height, channels = 8, b'', 0, 0, 0
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], 'big')
        kind = data[at + 4:at + 8]
        body = data[at + 8:at + 8 + length]
        if kind == b'IHDR':
            width, height = int.from_bytes(body[:4], 'big'), int.from_bytes(body[4:8], 'big')
            bit_depth, colour_type, interlace = body[8], body[9], body[12]
            assert bit_depth == 8 and colour_type in (2, 6) and interlace == 0, \
                '%s: only 8-bit RGB or RGBA, not interlaced' % path
            channels = 3 if colour_type == 2 else 4
        elif kind == b'IDAT':
            idat += body
        at += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rgb = bytearray()
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = row[x - channels] if x >= channels else 0
            up = previous[x]
            up_left = previous[x - channels] if x >= channels else 0
            if kind == 1:
                predictor = left
            elif kind == 2:
                predictor = up
            elif kind == 3:
                predictor = (left + up) // 2
            elif kind == 4:  # Paeth: the neighbour closest to left + up - up_left
                estimate = left + up - up_left
                distances = (abs(estimate - left), abs(estimate - up), abs(estimate - up_left))
                predictor = (left, up, up_left)[distances.index(min(distances))]
            else:
                assert kind == 0, '%s: unknown row filter %d' % (path, kind)
                predictor = 0
            row[x] = (row[x] + predictor) & 0xff
        previous = row
        for x in range(width):
            pixel = row[x * channels:x * channels + 3]
            if over_black and channels == 4:
                alpha = row[x * channels + 3]
                pixel = bytes((value * alpha + 127) // 255 for value in pixel)
            rgb += pixel
    return width, height, bytes(rgb)
