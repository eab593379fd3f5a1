# Throwaway chains for the certificate rules of issue 31 (item 6); keys are discarded after signing.
import json, base64, datetime, sys
from cryptography import x509
from cryptography.x509.oid import NameOID, ExtendedKeyUsageOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

out = sys.argv[1]
D = lambda y: datetime.datetime(y, 1, 1, tzinfo=datetime.timezone.utc)
def name(cn): return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "EntitlementKit Test PKI")])
serial = [100]
def cert(subject, issuer, key, issuer_key, extensions, nb=D(2024), na=D(2034)):
    serial[0] += 1
    b = x509.CertificateBuilder(issuer_name=issuer, subject_name=subject, public_key=key.public_key(), serial_number=serial[0], not_valid_before=nb, not_valid_after=na, extensions=[])
    for ext, critical in extensions:
        b = b.add_extension(ext, critical=critical)
    return b.sign(issuer_key, hashes.SHA256())
CA = lambda: (x509.BasicConstraints(ca=True, path_length=None), True)
KU = lambda: (x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False, data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True, encipher_only=False, decipher_only=False), True)
INTERMEDIATE_MARKER = (x509.UnrecognizedExtension(x509.ObjectIdentifier("1.2.840.113635.100.6.2.1"), b"\x05\x00"), False)
LEAF_MARKER = (x509.UnrecognizedExtension(x509.ObjectIdentifier("1.2.840.113635.100.6.11.1"), b"\x05\x00"), False)
def root(cn, extensions=None, **dates):
    k = ec.generate_private_key(ec.SECP256R1())
    return k, cert(name(cn), name(cn), k, k, [CA(), KU()] if extensions is None else extensions, **dates)
def intermediate(rk, rc, extra=(), **dates):
    k = ec.generate_private_key(ec.SECP256R1())
    return k, cert(name("Rules Intermediate"), rc.subject, k, rk, [CA(), KU(), INTERMEDIATE_MARKER, *extra], **dates)
def leaf(ik, ic, extra=(), **dates):
    k = ec.generate_private_key(ec.SECP256R1())
    return k, cert(name("Rules Leaf"), ic.subject, k, ik, [LEAF_MARKER, *extra], **dates)
def b64u(b): return base64.urlsafe_b64encode(b).rstrip(b"=").decode()
payload = {"transactionId":"2000003001","originalTransactionId":"2000003000","bundleId":"com.acme.trails","productId":"com.acme.trails.pro.monthly","purchaseDate":1748770200000,"originalPurchaseDate":1743499800000,"quantity":1,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","signedDate":1749985200000,"environment":"Production","storefront":"DEU","storefrontId":"143443","currency":"EUR","price":4990,"subscriptionGroupIdentifier":"20931442","webOrderLineItemId":"9000003001","transactionReason":"RENEWAL","expiresDate":1751362200000}
def jws(lk, lc, ic, rc):
    der = lambda c: base64.b64encode(c.public_bytes(serialization.Encoding.DER)).decode()
    header = b64u(json.dumps({"alg":"ES256","x5c":[der(lc),der(ic),der(rc)]}, separators=(",",":")).encode())
    body = b64u(json.dumps(payload, separators=(",",":")).encode())
    r, s = decode_dss_signature(lk.sign((header+"."+body).encode(), ec.ECDSA(hashes.SHA256())))
    return header+"."+body+"."+b64u(r.to_bytes(32,"big")+s.to_bytes(32,"big"))
def save(c, f): open(out+"/"+f, "wb").write(c.public_bytes(serialization.Encoding.DER))

chains = {}
rk, rc = root("Rules Root"); save(rc, "rules-root.der")
ik, ic = intermediate(rk, rc)
lk, lc = leaf(ik, ic)
chains["valid"] = jws(lk, lc, ic, rc)
bik, bic = intermediate(rk, rc, nb=D(2034), na=D(2024))
blk, blc = leaf(bik, bic)
chains["intermediateNotBeforeAfterNotAfter"] = jws(blk, blc, bic, rc)
blk2, blc2 = leaf(ik, ic, nb=D(2034), na=D(2024))
chains["leafNotBeforeAfterNotAfter"] = jws(blk2, blc2, ic, rc)
eku = (x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]), True)
k, c = leaf(ik, ic, [eku]); chains["leafWithCriticalExtendedKeyUsage"] = jws(k, c, ic, rc)
pol = (x509.CertificatePolicies([x509.PolicyInformation(x509.ObjectIdentifier("1.2.840.113635.100.5.1"), None)]), True)
pk, pc = intermediate(rk, rc, [pol]); k, c = leaf(pk, pc); chains["intermediateWithCriticalCertificatePolicies"] = jws(k, c, pc, rc)
ski = (x509.SubjectKeyIdentifier.from_public_key(lk.public_key()), True)
k, c = leaf(ik, ic, [(x509.SubjectKeyIdentifier.from_public_key(ik.public_key()), True)]); chains["leafWithCriticalSubjectKeyIdentifier"] = jws(k, c, ic, rc)
aki = (x509.AuthorityKeyIdentifier.from_issuer_public_key(ik.public_key()), True)
k, c = leaf(ik, ic, [aki]); chains["leafWithCriticalAuthorityKeyIdentifier"] = jws(k, c, ic, rc)
# Roots: backwards dates, no basic constraints, basic constraints without cA.
for file, case, kwargs in [("backwards-root.der", "underBackwardsRoot", dict(nb=D(2034), na=D(2024))),
                           ("noBasicConstraints-root.der", "underRootWithoutBasicConstraints", dict(extensions=[KU()])),
                           ("notCA-root.der", "underRootNotCA", dict(extensions=[(x509.BasicConstraints(ca=False, path_length=None), True), KU()]))]:
    xk, xc = root("Rules Root " + case, **kwargs); save(xc, file)
    k2, c2 = intermediate(xk, xc); k3, c3 = leaf(k2, c2)
    chains[case] = jws(k3, c3, c2, xc)
json.dump(chains, open(out+"/rules-chains.json","w"), indent=1, sort_keys=True)
print("ok", list(chains))
