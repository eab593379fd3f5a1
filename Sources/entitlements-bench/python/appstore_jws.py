#!/usr/bin/env python3
"""The App Store JWS yardstick for `entitlements-bench --ecdsa`, on Python's `cryptography` (OpenSSL).

    appstore_jws.py corpus DIR COUNT     a throwaway PKI shaped like Apple's (P-384 root and intermediate,
                                         P-256 leaf, Apple's marker extensions) and COUNT distinct signed
                                         transactions of one chain: DIR/root.der, DIR/history.json
                                         ({"signedTransactions": [...]}). The keys live in memory only.
    appstore_jws.py verify FILE ROOT     parse each JWS's header, verify its chain once per distinct x5c
                                         (as Apple's server libraries cache verified chains), verify the
                                         ES256 signature, parse the payload; prints
                                         {"count", "seconds", "cpuSeconds"}. --every-chain checks every chain.
    appstore_jws.py ecdsa SECONDS ROUNDS P-256 (SHA-256) and P-384 (SHA-384) verifications per CPU-second,
                                         ROUNDS rounds of SECONDS each: {"p256": [...], "p384": [...]}.

Exits 3 when `cryptography` is not installed (the bench then skips the comparison).
"""
import base64
import datetime
import json
import sys
import time

try:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature
    from cryptography.x509.oid import NameOID
except ImportError:
    sys.exit(3)

LEAF_MARKER = x509.ObjectIdentifier("1.2.840.113635.100.6.11.1")
INTERMEDIATE_MARKER = x509.ObjectIdentifier("1.2.840.113635.100.6.2.1")


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def certificate(subject, issuer, key, issuer_key, ca, marker):
    name = lambda cn: x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
    start = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    builder = (
        x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer))
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(start).not_valid_after(start + datetime.timedelta(days=3650)))
    if ca:
        builder = builder.add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
    if marker is not None:
        builder = builder.add_extension(x509.UnrecognizedExtension(marker, b"\x05\x00"), critical=False)
    return builder.sign(issuer_key, hashes.SHA384())


def corpus(directory, count):
    root_key = ec.generate_private_key(ec.SECP384R1())
    intermediate_key = ec.generate_private_key(ec.SECP384R1())
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    root = certificate("Bench Root", "Bench Root", root_key, root_key, True, None)
    intermediate = certificate("Bench Intermediate", "Bench Root", intermediate_key, root_key, True, INTERMEDIATE_MARKER)
    leaf = certificate("Bench Leaf", "Bench Intermediate", leaf_key, intermediate_key, False, LEAF_MARKER)
    chain = [base64.b64encode(c.public_bytes(serialization.Encoding.DER)).decode() for c in (leaf, intermediate, root)]
    header = b64url(json.dumps({"alg": "ES256", "x5c": chain}, separators=(",", ":")).encode())
    signed = []
    base = 1_735_689_600_000  # 2025-01-01
    for index in range(count):
        purchase = base + index * 86_400_000
        payload = {
            "transactionId": str(3_000_000_000 + index), "originalTransactionId": "3000000000",
            "bundleId": "com.example.bench", "productId": "com.example.bench.pro.daily",
            "purchaseDate": purchase, "originalPurchaseDate": base, "expiresDate": purchase + 86_400_000,
            "quantity": 1, "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
            "signedDate": purchase + 1000, "environment": "Production", "transactionReason": "RENEWAL",
            "webOrderLineItemId": str(9_000_000_000 + index), "storefront": "USA", "currency": "USD", "price": 990,
        }
        signing_input = header + "." + b64url(json.dumps(payload, separators=(",", ":")).encode())
        der = leaf_key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256()))
        r, s = decode_dss_signature(der)
        signed.append(signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big")))
    with open(directory + "/root.der", "wb") as file:
        file.write(root.public_bytes(serialization.Encoding.DER))
    with open(directory + "/history.json", "w") as file:
        json.dump({"signedTransactions": signed}, file)


def verified_chain(x5c, roots, signed_date):
    leaf, intermediate = (x509.load_der_x509_certificate(base64.b64decode(text)) for text in x5c[:2])
    intermediate.extensions.get_extension_for_oid(INTERMEDIATE_MARKER)
    leaf.extensions.get_extension_for_oid(LEAF_MARKER)
    root = next(r for r in roots if r.subject == intermediate.issuer)
    root.public_key().verify(
        intermediate.signature, intermediate.tbs_certificate_bytes, ec.ECDSA(intermediate.signature_hash_algorithm))
    intermediate.public_key().verify(leaf.signature, leaf.tbs_certificate_bytes, ec.ECDSA(leaf.signature_hash_algorithm))
    return leaf.public_key(), [(c.not_valid_before_utc, c.not_valid_after_utc) for c in (leaf, intermediate, root)]


def verify(path, root_path, every_chain):
    with open(path) as file:
        documents = json.load(file)["signedTransactions"]
    with open(root_path, "rb") as file:
        roots = [x509.load_der_x509_certificate(file.read())]
    wall, cpu = time.perf_counter(), time.process_time()
    chains = {}
    for jws in documents:
        header_text, payload_text, signature_text = jws.split(".")
        header = json.loads(b64url_decode(header_text))
        assert header["alg"] == "ES256" and len(header["x5c"]) == 3
        payload = json.loads(b64url_decode(payload_text))
        signed_date = datetime.datetime.fromtimestamp(payload["signedDate"] / 1000, datetime.timezone.utc)
        key = (header["x5c"][0], header["x5c"][1])
        chain = None if every_chain else chains.get(key)
        if chain is None:
            chain = verified_chain(header["x5c"], roots, signed_date)
            chains[key] = chain
        leaf_key, windows = chain
        assert all(start <= signed_date <= end for start, end in windows)
        raw = b64url_decode(signature_text)
        signature = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        leaf_key.verify(signature, (header_text + "." + payload_text).encode(), ec.ECDSA(hashes.SHA256()))
    print(json.dumps({
        "count": len(documents), "seconds": time.perf_counter() - wall, "cpuSeconds": time.process_time() - cpu}))


def ecdsa(seconds, rounds):
    figures = {"p256": [], "p384": []}
    cases = []
    for name, curve, hash_algorithm in [("p256", ec.SECP256R1(), hashes.SHA256()), ("p384", ec.SECP384R1(), hashes.SHA384())]:
        key = ec.generate_private_key(curve)
        message = b"sample" * 10
        cases.append((name, key.public_key(), key.sign(message, ec.ECDSA(hash_algorithm)), message, hash_algorithm))
    # Rounds alternate the curves, as the Swift side does, so both see the same load.
    for _ in range(rounds):
        for name, public, signature, message, hash_algorithm in cases:
            count, start = 0, time.process_time()
            while time.process_time() - start < seconds:
                for _ in range(20):
                    public.verify(signature, message, ec.ECDSA(hash_algorithm))
                count += 20
            figures[name].append(count / (time.process_time() - start))
    print(json.dumps(figures))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "corpus":
        corpus(sys.argv[2], int(sys.argv[3]))
    elif command == "verify":
        verify(sys.argv[2], sys.argv[3], "--every-chain" in sys.argv[4:])
    elif command == "ecdsa":
        ecdsa(float(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 1)
