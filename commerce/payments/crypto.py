"""The platform's cryptography (APIv3): RSA-SHA256 (PKCS#1 v1.5) signatures in base64 over
newline-terminated lines, the `WECHATPAY2-SHA256-RSA2048` Authorization header, signed
answers and notifies (`Wechatpay-*` headers), and AEAD_AES_256_GCM resources. Shared by the
client, the notify endpoint and the stand-in; the tests check all of it against an
independent implementation."""

import base64
import re
import secrets
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

SCHEME = "WECHATPAY2-SHA256-RSA2048"
# Answers and notifies older (or further ahead) than this are refused: a replay.
TIMESTAMP_WINDOW_SECONDS = 300
# The platform's deliberate probes carry a signature starting with this; it never verifies.
SIGNTEST_PREFIX = "WECHATPAY/SIGNTEST/"
_AUTH_FIELD = re.compile(r'(\w+)="([^"]*)"')


class SignatureError(Exception):
    """A signature, timestamp, key id or ciphertext that does not check out; the text says
    which."""


def signed_message(*lines: str) -> bytes:
    return "".join(f"{line}\n" for line in lines).encode()


def sign(private_key: rsa.RSAPrivateKey, *lines: str) -> str:
    signature = private_key.sign(signed_message(*lines), padding.PKCS1v15(), hashes.SHA256())
    return base64.b64encode(signature).decode()


def verify(public_key: rsa.RSAPublicKey, signature: str, *lines: str) -> bool:
    try:
        raw = base64.b64decode(signature, validate=True)
        public_key.verify(raw, signed_message(*lines), padding.PKCS1v15(), hashes.SHA256())
    except (InvalidSignature, ValueError):
        return False
    return True


def nonce() -> str:
    return secrets.token_hex(16).upper()


def authorization(
    private_key: rsa.RSAPrivateKey,
    *,
    mch_id: str,
    serial: str,
    method: str,
    url: str,
    body: str,
    timestamp: int | None = None,
    nonce_str: str | None = None,
) -> str:
    """The Authorization header of a request to the platform; `url` is the path with its
    query string."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    nonce_str = nonce_str or nonce()
    signature = sign(private_key, method, url, str(timestamp), nonce_str, body)
    return (
        f'{SCHEME} mchid="{mch_id}",nonce_str="{nonce_str}",signature="{signature}",'
        f'timestamp="{timestamp}",serial_no="{serial}"'
    )


def parse_authorization(header: str) -> dict[str, str]:
    """The fields of an Authorization header; SignatureError when it is not the scheme's."""
    scheme, _, fields = header.partition(" ")
    if scheme != SCHEME:
        raise SignatureError(f"authorization scheme must be {SCHEME}")
    parsed = dict(_AUTH_FIELD.findall(fields))
    missing = {"mchid", "nonce_str", "signature", "timestamp", "serial_no"} - set(parsed)
    if missing:
        raise SignatureError(f"authorization lacks {sorted(missing)[0]}")
    return parsed


def timestamp_fresh(timestamp: str, now: float | None = None) -> bool:
    now = time.time() if now is None else now
    return timestamp.isdigit() and abs(now - int(timestamp)) <= TIMESTAMP_WINDOW_SECONDS


@dataclass(frozen=True)
class SignedHeaders:
    timestamp: str
    nonce: str
    signature: str
    serial: str

    def as_dict(self) -> dict[str, str]:
        return {
            "Wechatpay-Timestamp": self.timestamp,
            "Wechatpay-Nonce": self.nonce,
            "Wechatpay-Signature": self.signature,
            "Wechatpay-Serial": self.serial,
            "Wechatpay-Signature-Type": SCHEME,
        }


def sign_body(private_key: rsa.RSAPrivateKey, key_id: str, body: str) -> SignedHeaders:
    """The headers the platform puts on an answer or a notify."""
    timestamp, nonce_str = str(int(time.time())), nonce()
    return SignedHeaders(
        timestamp, nonce_str, sign(private_key, timestamp, nonce_str, body), key_id
    )


def verify_body(headers, body: str, *, public_key: rsa.RSAPublicKey, key_id: str) -> None:
    """Checks the `Wechatpay-*` headers (any case-insensitive mapping) of an answer or a
    notify over its raw body; SignatureError naming the problem otherwise."""
    signature = headers.get("Wechatpay-Signature") or ""
    timestamp = headers.get("Wechatpay-Timestamp") or ""
    nonce_str = headers.get("Wechatpay-Nonce") or ""
    serial = headers.get("Wechatpay-Serial") or ""
    if not (signature and timestamp and nonce_str and serial):
        raise SignatureError("Wechatpay signature headers are missing")
    if serial != key_id:
        raise SignatureError(f"unknown Wechatpay-Serial {serial[:64]}")
    if not timestamp_fresh(timestamp):
        raise SignatureError("Wechatpay-Timestamp is more than 5 minutes away")
    if signature.startswith(SIGNTEST_PREFIX) or not verify(
        public_key, signature, timestamp, nonce_str, body
    ):
        raise SignatureError("Wechatpay-Signature does not verify")


def aead_encrypt(key: str, plaintext: str, associated_data: str) -> dict:
    """A resource as the platform sends it: AEAD_AES_256_GCM with the APIv3 key, a 12-byte
    text nonce."""
    nonce_str = secrets.token_hex(6)
    ciphertext = AESGCM(key.encode()).encrypt(
        nonce_str.encode(), plaintext.encode(), associated_data.encode()
    )
    return {
        "algorithm": "AEAD_AES_256_GCM",
        "ciphertext": base64.b64encode(ciphertext).decode(),
        "associated_data": associated_data,
        "nonce": nonce_str,
    }


def aead_decrypt(key: str, resource: dict) -> str:
    try:
        if resource.get("algorithm") != "AEAD_AES_256_GCM":
            raise SignatureError("resource algorithm must be AEAD_AES_256_GCM")
        plaintext = AESGCM(key.encode()).decrypt(
            str(resource["nonce"]).encode(),
            base64.b64decode(resource["ciphertext"], validate=True),
            str(resource.get("associated_data") or "").encode(),
        )
        return plaintext.decode()
    except (InvalidTag, KeyError, TypeError, ValueError):
        raise SignatureError("resource does not decrypt with the APIv3 key") from None


@lru_cache(maxsize=8)
def _key(path: str, mtime: float, private: bool):
    pem = Path(path).read_bytes()
    if private:
        key = serialization.load_pem_private_key(pem, None)
        kind = rsa.RSAPrivateKey
    else:
        key = serialization.load_pem_public_key(pem)
        kind = rsa.RSAPublicKey
    if not isinstance(key, kind):
        raise ValueError(f"{path} is not an RSA key")
    return key


def private_key(path: str) -> rsa.RSAPrivateKey:
    """The RSA private key in a PEM file, parsed once until the file changes."""
    return _key(path, Path(path).stat().st_mtime, True)


def public_key(path: str) -> rsa.RSAPublicKey:
    return _key(path, Path(path).stat().st_mtime, False)


def new_private_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def private_pem(key: rsa.RSAPrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def public_pem(key: rsa.RSAPublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
