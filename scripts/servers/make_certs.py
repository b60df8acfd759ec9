"""Writes the certificates of the TLS test server into a directory (scripts/test.sh).

    python make_certs.py DIR

DIR/ca.pem           a test certificate authority, valid for two days (what the tests trust)
DIR/server.pem/.key  a server certificate for 127.0.0.1 and localhost, signed by that CA
DIR/wrong-name.pem/.key  a certificate signed by the same CA for another name (wrong.invalid):
                     a client that checks host names must refuse it

Made fresh on every run with the pinned `cryptography` package of .venv; nothing is
installed or trusted system-wide.
"""

import datetime
import ipaddress
import pathlib
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def _name(common_name):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _write(directory, stem, certificate, key):
    (directory / f"{stem}.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    if key is not None:
        path = directory / f"{stem}.key"
        path.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        path.chmod(0o600)


def _certificate(subject, issuer, public_key, signing_key, *, is_ca, names=()):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=is_ca, path_length=None), critical=True)
    )
    if is_ca:
        builder = builder.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
    else:
        builder = builder.add_extension(x509.SubjectAlternativeName(list(names)), critical=False)
        builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    return builder.sign(signing_key, hashes.SHA256())


def main(directory):
    directory.mkdir(parents=True, exist_ok=True)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = _name("APIKit test CA")
    ca = _certificate(ca_name, ca_name, ca_key.public_key(), ca_key, is_ca=True)
    _write(directory, "ca", ca, None)
    servers = {
        "server": [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")],
        "wrong-name": [x509.DNSName("wrong.invalid")],
    }
    for stem, names in servers.items():
        key = ec.generate_private_key(ec.SECP256R1())
        certificate = _certificate(_name(stem), ca_name, key.public_key(), ca_key, is_ca=False, names=names)
        _write(directory, stem, certificate, key)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(pathlib.Path(sys.argv[1]))
