#!/usr/bin/env python3
"""Writes golden.inc: expected UTF-8 decode, validate and encode results, computed by CPython.

The expected outputs come from CPython's codec, independent of this library:
  decode    bytes.decode("utf-8", errors="replace")  (U+FFFD per maximal subpart)
  validate  UnicodeDecodeError.start of bytes.decode("utf-8")  (-1 when it decodes)
  encode    chr(cp).encode("utf-8") for a Unicode scalar value, EF BF BD otherwise

Small cases are written out in full; large generated inputs (exhaustive pairs, triples and quads,
random bytes, every code point) are described by name and checked through their length, a 64-bit
FNV-1a hash of the expected output and the first error. Their generators are mirrored in
bench/utf8_text.cpp (utf8_all_pairs, utf8_all_lead_triples, utf8_all_lead_quads,
utf8_random_bytes, utf32_all_code_points).

Usage: python3 make_golden.py [OUT]   (default: golden.inc next to this script)
"""

import os
import sys

MASK64 = (1 << 64) - 1


def splitmix64(x):
    z = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def utf8_random(seed, index):
    return splitmix64((splitmix64(seed) + index) & MASK64)


SPECIAL = [0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED,
           0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF]


def utf8_random_bytes(n, seed):
    out = bytearray(n)
    for i in range(n):
        w = utf8_random(seed, i)
        out[i] = (w & 0xFF) if ((w >> 8) & 3) == 0 else SPECIAL[(w >> 16) % len(SPECIAL)]
    return bytes(out)


def all_pairs():
    return b"".join(bytes([b0, b1, 0x41]) for b0 in range(256) for b1 in range(256))


def all_lead_triples():
    return b"".join(bytes([b0, b1, b2, 0x41])
                    for b0 in range(0xE0, 0xF5) for b1 in range(256) for b2 in range(256))


def all_lead_quads():
    return b"".join(bytes([b0, b1, b2, b3, 0x41])
                    for b0 in range(0xF0, 0xF5) for b1 in (0x80, 0x8F, 0x90, 0xBF)
                    for b2 in range(256) for b3 in range(256))


def all_code_points():
    return list(range(0x120000)) + [0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]


def fnv1a(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & MASK64
    return h


def decode(data):
    return [ord(c) for c in data.decode("utf-8", errors="replace")]


def first_error(data):
    try:
        data.decode("utf-8")
        return -1
    except UnicodeDecodeError as e:
        return e.start


def encode_one(cp):
    if cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF:
        return chr(cp).encode("utf-8")
    return b"\xef\xbf\xbd"


def encode(cps):
    return b"".join(encode_one(cp) for cp in cps)


def decode_cases():
    cases = [("empty", b"")]
    cases += [("byte_%02X" % b, bytes([b])) for b in range(256)]
    leads = [[0xC2, 0xA9], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xE1, 0x80, 0x80],
             [0xEC, 0xBF, 0xBF], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBD],
             [0xF0, 0x90, 0x80, 0x80], [0xF1, 0x80, 0x80, 0x80], [0xF3, 0xBF, 0xBF, 0xBF],
             [0xF4, 0x8F, 0xBF, 0xBF]]
    for full in leads:
        name = "".join("%02X" % b for b in full)
        cases.append(("valid_" + name, bytes(full)))
        for k in range(1, len(full)):
            p = bytes(full[:k])
            pn = "truncated_" + "".join("%02X" % b for b in p)
            cases += [(pn, p), (pn + "_A", p + b"A"), ("A_" + pn, b"A" + p),
                      (pn + "_then_valid", p + bytes(full)), (pn + "_twice", p + p)]
    named = {
        # overlongs
        "overlong_C080": "C0 80", "overlong_C0AF": "C0 AF", "overlong_C1BF": "C1 BF",
        "overlong_E08080": "E0 80 80", "overlong_E080AF": "E0 80 AF",
        "overlong_E09FBF": "E0 9F BF", "overlong_F0808080": "F0 80 80 80",
        "overlong_F08080AF": "F0 80 80 AF", "overlong_F08FBFBF": "F0 8F BF BF",
        "overlong_5byte": "F8 88 80 80 80", "overlong_6byte": "FC 84 80 80 80 80",
        "overlong_C080_A": "C0 80 41",
        # surrogates (and their well-formed neighbours)
        "surrogate_D800": "ED A0 80", "surrogate_DB7F": "ED AD BF", "surrogate_DB80": "ED AE 80",
        "surrogate_DBFF": "ED AF BF", "surrogate_DC00": "ED B0 80", "surrogate_DFFF": "ED BF BF",
        "surrogate_pair": "ED A0 80 ED B0 80", "surrogate_pair_high_low": "ED AF BF ED BF BF",
        "valid_D7FF": "ED 9F BF", "valid_E000": "EE 80 80",
        # above U+10FFFF and bytes that never occur
        "too_large_F4908080": "F4 90 80 80", "too_large_F4BFBFBF": "F4 BF BF BF",
        "too_large_F5808080": "F5 80 80 80", "too_large_F7BFBFBF": "F7 BF BF BF",
        "too_large_F8": "F8", "too_large_FBBFBFBFBF": "FB BF BF BF BF", "byte_FC_alone": "FC",
        "byte_FD_alone": "FD", "impossible_FEFEFFFF": "FE FE FF FF",
        # stray continuation bytes
        "stray_80": "80", "stray_BF": "BF", "stray_80BF": "80 BF", "stray_x4": "80 80 80 80",
        "stray_between_ascii": "41 80 42", "stray_after_2byte": "C2 80 80",
        "stray_after_3byte": "E2 82 AC 80", "stray_after_4byte": "F0 9F 98 80 80 80 80 80",
        "stray_x8": "80 80 80 80 80 80 80 80",
        # Markus Kuhn's UTF-8 decoder capability and stress test, sections 3.2, 3.3 and 3.5
        "kuhn_lonely_2byte_leads": " ".join("%02X 20" % b for b in range(0xC0, 0xE0)),
        "kuhn_lonely_3byte_leads": " ".join("%02X 20" % b for b in range(0xE0, 0xF0)),
        "kuhn_lonely_4byte_leads": " ".join("%02X 20" % b for b in range(0xF0, 0xF8)),
        "kuhn_lonely_5_6byte_leads": "F8 20 F9 20 FA 20 FB 20 FC 20 FD 20",
        "kuhn_last_byte_missing": "C0 E0 80 F0 80 80 F8 80 80 80 FC 80 80 80 80 DF EF BF F7 BF BF "
                                  "FB BF BF BF FD BF BF BF BF",
        "kuhn_impossible": "FE FF FE FE FF FF",
        "bom_then_A": "EF BB BF 41",
        "nul_bytes": "00 41 00",
    }
    for name, hex_bytes in named.items():
        cases.append((name, bytes.fromhex(hex_bytes)))
    boundaries = [0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xCFFF, 0xD000, 0xD7FF, 0xE000,
                  0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000,
                  0x10FFFF]
    for cp in boundaries:
        cases.append(("boundary_U%04X" % cp, chr(cp).encode("utf-8")))
    text = "héllo wörld – 日本語 😀 κόσμε".encode("utf-8")
    cases.append(("realistic", text))
    cases.append(("realistic_with_errors",
                  text[:3] + b"\x80" + text[3:12] + b"\xe0\x80" + text[12:20] + b"\xf4\x90\x80\x80"
                  + text[20:-2]))
    return cases


def encode_cases():
    boundaries = [0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xCFFF, 0xD000, 0xD7FF, 0xE000,
                  0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000,
                  0x10FFFF]
    invalid = [0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x110000, 0x1FFFFF, 0x7FFFFFFF, 0x80000000,
               0xFFFFFFFF]
    cases = [("empty", [])]
    cases += [("U%04X" % cp, [cp]) for cp in boundaries + invalid]
    cases.append(("surrogate_pair", [0xD83D, 0xDE00]))
    cases.append(("all_boundaries", boundaries))
    cases.append(("mixed_valid_invalid", [0x41, 0xD800, 0xE9, 0x110000, 0x65E5, 0xFFFFFFFF,
                                          0x1F600, 0xDFFF]))
    cases.append(("feff_first", [0xFEFF, 0x41]))
    return cases


def c_bytes(data):
    return ", ".join("0x%02X" % b for b in data) or "0"


def c_words(words):
    return ", ".join("0x%Xu" % w for w in words) or "0"


def wrap(items_text, indent="    "):
    out, line = [], indent
    for item in items_text.split(", "):
        piece = item + ","
        if len(line) + len(piece) + 1 > 100:
            out.append(line.rstrip())
            line = indent
        line += piece + " "
    out.append(line.rstrip())
    return "\n".join(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "golden.inc")

    dec = decode_cases()
    dec_bytes, dec_cps, dec_rows = bytearray(), [], []
    for name, data in dec:
        cps = decode(data)
        dec_rows.append('    {"%s", %d, %d, %d, %d, %d},' % (
            name, len(dec_bytes), len(data), len(dec_cps), len(cps), first_error(data)))
        dec_bytes += data
        dec_cps += cps

    hashed = [("all_pairs", all_pairs()), ("all_lead_triples", all_lead_triples()),
              ("all_lead_quads", all_lead_quads())]
    hashed += [("random_bytes_%d" % seed, utf8_random_bytes(1 << 18, seed)) for seed in (1, 2, 3)]
    hash_rows = []
    for name, data in hashed:
        cps = decode(data)
        packed = b"".join(cp.to_bytes(4, "little") for cp in cps)
        hash_rows.append('    {"%s", %d, %d, 0x%016Xull, %d},' % (
            name, len(data), len(cps), fnv1a(packed), first_error(data)))

    enc = encode_cases()
    enc_cps, enc_bytes, enc_rows = [], bytearray(), []
    for name, cps in enc:
        data = encode(cps)
        enc_rows.append('    {"%s", %d, %d, %d, %d},' % (
            name, len(enc_cps), len(cps), len(enc_bytes), len(data)))
        enc_cps += cps
        enc_bytes += data
    all_cps = all_code_points()
    all_encoded = encode(all_cps)
    enc_hash_row = '    {"all_code_points", %d, %d, 0x%016Xull, -1},' % (
        len(all_cps), len(all_encoded), fnv1a(all_encoded))

    with open(path, "w") as f:
        f.write("// Generated by kernels/utf8/golden/make_golden.py with Python %d.%d.%d: do not "
                "edit.\n" % sys.version_info[:3])
        f.write("// Expected results from CPython's UTF-8 codec (see the script). Included by\n"
                "// tests/test_utf8.cpp.\n")
        f.write("#pragma once\n\n#include <cstddef>\n#include <cstdint>\n\n")
        f.write("namespace gps::utf8::golden {\n\n")
        f.write("// Decode and validate: input bytes at [byte_offset, +bytes) of kDecodeBytes, "
                "expected code\n// points at [cp_offset, +code_points) of kDecodeCodePoints.\n")
        f.write("struct DecodeCase {\n  const char* name;\n  std::size_t byte_offset, bytes, "
                "cp_offset, code_points;\n  long long first_error;\n};\n\n")
        f.write("// A generated input (its generator in bench/utf8_text.hpp): its length, the "
                "length of the\n// expected output, the FNV-1a hash of the output (code points "
                "as 4 little-endian bytes;\n// encode: the bytes) and the first error.\n")
        f.write("struct HashCase {\n  const char* name;\n  std::size_t input, output;\n"
                "  std::uint64_t fnv1a;\n  long long first_error;\n};\n\n")
        f.write("// Encode: code points at [cp_offset, +code_points) of kEncodeCodePoints, "
                "expected bytes at\n// [byte_offset, +bytes) of kEncodeBytes.\n")
        f.write("struct EncodeCase {\n  const char* name;\n  std::size_t cp_offset, code_points, "
                "byte_offset, bytes;\n};\n\n")
        f.write("inline constexpr unsigned char kDecodeBytes[] = {\n%s\n};\n\n"
                % wrap(c_bytes(dec_bytes)))
        f.write("inline constexpr std::uint32_t kDecodeCodePoints[] = {\n%s\n};\n\n"
                % wrap(c_words(dec_cps)))
        f.write("inline constexpr DecodeCase kDecodeCases[] = {\n%s\n};\n\n" % "\n".join(dec_rows))
        f.write("inline constexpr HashCase kDecodeHashCases[] = {\n%s\n};\n\n"
                % "\n".join(hash_rows))
        f.write("inline constexpr std::uint32_t kEncodeCodePoints[] = {\n%s\n};\n\n"
                % wrap(c_words(enc_cps)))
        f.write("inline constexpr unsigned char kEncodeBytes[] = {\n%s\n};\n\n"
                % wrap(c_bytes(enc_bytes)))
        f.write("inline constexpr EncodeCase kEncodeCases[] = {\n%s\n};\n\n" % "\n".join(enc_rows))
        f.write("inline constexpr HashCase kEncodeHashCases[] = {\n%s\n};\n\n" % enc_hash_row)
        f.write("} // namespace gps::utf8::golden\n")
    print("wrote %s: %d decode cases, %d hashed inputs, %d encode cases"
          % (path, len(dec), len(hashed) + 1, len(enc)))


if __name__ == "__main__":
    main()
