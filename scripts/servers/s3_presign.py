#!/usr/bin/env python3
"""Presigned S3 URLs for the moto server of APIKit's integration tests (boto3, run from .venv).

    .venv/bin/python scripts/servers/s3_presign.py COMMAND ...     (prints one JSON object)

    create-bucket BUCKET [--versioned]                {"bucket": BUCKET}
    presign-post BUCKET KEY [--max-size N]            {"url": ..., "fields": {...}}
    presign-put BUCKET KEY [--content-type T]         {"url": ...}
    presign-get BUCKET KEY [--version-id V]           {"url": ...}
    list-versions BUCKET KEY                          {"versions": [{"version_id", "size", "is_latest"}]}

The endpoint is APIKIT_S3_URL (or --endpoint); the credentials are the dummy testing/testing,
the region us-east-1, the addressing path-style (http://127.0.0.1:PORT/BUCKET/KEY). With
--max-size the POST policy holds a content-length-range condition [0, N]; with
--content-type the PUT must be sent with exactly that Content-Type (for real S3: moto checks
neither; what it answers to chunked uploads is written down at S3Server in
Tests/APIKitIntegrationTests/RealServers.swift). A --versioned bucket keeps every object stored
under a key, one version per upload: list-versions lists them (newest first), and presign-get
with --version-id fetches one.
"""

import argparse
import json
import os
import sys

import boto3
from botocore.config import Config

EXPIRES = 3600


def client(endpoint):
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=Config(signature_version="s3v4", s3={"addressing_style": "path"}),
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--endpoint", default=os.environ.get("APIKIT_S3_URL"))
    commands = parser.add_subparsers(dest="command", required=True)
    create = commands.add_parser("create-bucket")
    create.add_argument("bucket")
    create.add_argument("--versioned", action="store_true")
    post = commands.add_parser("presign-post")
    post.add_argument("bucket")
    post.add_argument("key")
    post.add_argument("--max-size", type=int)
    put = commands.add_parser("presign-put")
    put.add_argument("bucket")
    put.add_argument("key")
    put.add_argument("--content-type")
    get = commands.add_parser("presign-get")
    get.add_argument("bucket")
    get.add_argument("key")
    get.add_argument("--version-id")
    versions = commands.add_parser("list-versions")
    versions.add_argument("bucket")
    versions.add_argument("key")
    args = parser.parse_args()
    if not args.endpoint:
        parser.error("no endpoint: set APIKIT_S3_URL or pass --endpoint")

    s3 = client(args.endpoint)
    if args.command == "create-bucket":
        s3.create_bucket(Bucket=args.bucket)
        if args.versioned:
            s3.put_bucket_versioning(Bucket=args.bucket, VersioningConfiguration={"Status": "Enabled"})
        result = {"bucket": args.bucket}
    elif args.command == "presign-post":
        conditions = [["content-length-range", 0, args.max_size]] if args.max_size is not None else None
        result = s3.generate_presigned_post(args.bucket, args.key, Conditions=conditions, ExpiresIn=EXPIRES)
    elif args.command == "presign-put":
        params = {"Bucket": args.bucket, "Key": args.key}
        if args.content_type:
            params["ContentType"] = args.content_type
        result = {"url": s3.generate_presigned_url("put_object", Params=params, ExpiresIn=EXPIRES)}
    elif args.command == "list-versions":
        listed = s3.list_object_versions(Bucket=args.bucket, Prefix=args.key).get("Versions", [])
        result = {"versions": [
            {"version_id": version["VersionId"], "size": version["Size"], "is_latest": version["IsLatest"]}
            for version in listed if version["Key"] == args.key
        ]}
    else:
        params = {"Bucket": args.bucket, "Key": args.key}
        if args.version_id:
            params["VersionId"] = args.version_id
        result = {"url": s3.generate_presigned_url("get_object", Params=params, ExpiresIn=EXPIRES)}
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    sys.exit(main())
