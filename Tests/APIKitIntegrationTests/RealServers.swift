import APIKit
import Testing

/// A server URL from the environment variable `name`, when it holds a URL with a host.
private func serverURL(_ name: String) -> URL? {
    guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty,
        let url = URL(string: value), url.scheme != nil, url.host != nil
    else { return nil }
    return url
}

/// moto's S3 server (`moto_server` from the pinned `moto[server]`), started by `scripts/test.sh`.
///
/// Path-style: a bucket is `url/BUCKET`, an object `url/BUCKET/KEY`. ``Presigner`` makes the
/// URLs the way a real S3 client would, but moto (5.2.5, checked with curl) checks neither the
/// signature nor a POST policy's content-length-range (an oversized POST is stored, 204).
///
/// Framing, as moto answers it:
/// - a presigned POST (a form upload to `url/BUCKET`) sent with `Transfer-Encoding: chunked`
///   and no `Content-Length` answers **411 Length Required** with the 23-byte body
///   `Content-Length required` (`Content-Type: application/xml`) and stores nothing;
/// - a presigned PUT sent the same way is accepted (200) and stored byte-identical, which real
///   S3 would refuse (411 `MissingContentLength`), so only the POST shows a missing length;
/// - `Expect: 100-continue` is answered with two `100 Continue` lines before the status.
enum S3Server {
    static let variable = "APIKIT_S3_URL"
    static let url = serverURL(variable)
    static let skipReason: Comment =
        "APIKIT_S3_URL is not set: run `bash scripts/test.sh` to start moto's S3 server"
}

/// The FastAPI app `scripts/servers/fastapi_app.py` on uvicorn, started by `scripts/test.sh`.
/// Its docstring lists the endpoints: uploads answer sizes, sha256 and the framing headers.
enum FastAPIServer {
    static let variable = "APIKIT_FASTAPI_URL"
    static let url = serverURL(variable)
    static let skipReason: Comment =
        "APIKIT_FASTAPI_URL is not set: run `bash scripts/test.sh` to start the FastAPI server"
}

/// `scripts/servers/length_server.py`, started by `scripts/test.sh`: reads request bodies by
/// `Content-Length` only (a chunked body arrives as 0 bytes) and reports what it received.
enum LengthServer {
    static let variable = "APIKIT_LENGTH_URL"
    static let url = serverURL(variable)
    static let skipReason: Comment =
        "APIKIT_LENGTH_URL is not set: run `bash scripts/test.sh` to start the Content-Length server"
}

/// What the Content-Length server answers to every request.
struct LengthServerReport: Decodable, Sendable {
    struct Part: Decodable, Sendable, Equatable {
        var name: String?
        var filename: String?
        var contentType: String?
        var size: Int
        var sha256: String
    }

    var method: String
    var path: String
    var contentLength: Int?
    var transferEncoding: String?
    var received: Int
    var sha256: String
    var contentType: String?
    var headers: [String: String]
    /// The parts of a `POST /multipart` body.
    var parts: [Part]?
    /// Why a `POST /multipart` body could not be split into parts.
    var error: String?

    static func decode(_ data: Data) throws -> Self {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Self.self, from: data)
    }
}

/// Presigned S3 URLs for ``S3Server``, made by boto3 in `scripts/servers/s3_presign.py`.
///
/// `scripts/test.sh` exports `APIKIT_PRESIGN_COMMAND`, a shell command prefix (the venv's
/// python and the script); the script reads the endpoint from `APIKIT_S3_URL`. Each call runs
/// it once (about half a second: boto3 loads) and decodes the JSON it prints. The calls are
/// `async` and wait for the script on a Dispatch thread: a test that blocked one of the few
/// threads of Swift's cooperative pool for that long would stall every other test's tasks —
/// and the AsyncHTTPClient transport, whose transfers run there.
///
/// ```swift
/// let bucket = try await Presigner.createBucket()
/// let put = try await Presigner.put(bucket: bucket, key: "a.bin")
/// ```
enum Presigner {
    static let variable = "APIKIT_PRESIGN_COMMAND"
    static let command: String? = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }

    /// A presigned POST: send a multipart form to `url` with `fields` first and the file last.
    struct Post: Decodable, Sendable {
        var url: URL
        var fields: [String: String]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One stored version of an object in a versioned bucket.
    struct Version: Decodable, Sendable {
        var versionId: String
        var size: Int
        var isLatest: Bool
    }

    /// Creates a bucket (a fresh random name unless given) and returns its name; a `versioned`
    /// one keeps every upload to a key as a version of its own (``versions(bucket:key:)``).
    @discardableResult
    static func createBucket(
        _ name: String = "apikit-\(UUID().uuidString.lowercased())", versioned: Bool = false
    ) async throws -> String {
        _ = try await run(["create-bucket", name] + (versioned ? ["--versioned"] : []))
        return name
    }

    /// The versions stored under `key` in a versioned bucket, newest first.
    static func versions(bucket: String, key: String) async throws -> [Version] {
        struct Answer: Decodable { var versions: [Version] }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Answer.self, from: await run(["list-versions", bucket, key])).versions
    }

    /// A presigned POST policy; with `maxSize` it holds a content-length-range condition (moto
    /// does not enforce it).
    static func post(bucket: String, key: String, maxSize: Int? = nil) async throws -> Post {
        let extra = maxSize.map { ["--max-size", String($0)] } ?? []
        return try JSONDecoder().decode(Post.self, from: await run(["presign-post", bucket, key] + extra))
    }

    /// A presigned PUT URL; with `contentType` the upload must carry exactly that `Content-Type`.
    static func put(bucket: String, key: String, contentType: String? = nil) async throws -> URL {
        let extra = contentType.map { ["--content-type", $0] } ?? []
        return try url(from: await run(["presign-put", bucket, key] + extra))
    }

    /// A presigned GET URL: of the object, or of one of its versions.
    static func get(bucket: String, key: String, versionId: String? = nil) async throws -> URL {
        try url(from: await run(["presign-get", bucket, key] + (versionId.map { ["--version-id", $0] } ?? [])))
    }

    private static func url(from output: Data) throws -> URL {
        struct Answer: Decodable { var url: URL }
        return try JSONDecoder().decode(Answer.self, from: output).url
    }

    /// Runs `APIKIT_PRESIGN_COMMAND arguments...` through `/bin/sh` and returns its standard
    /// output; waits for it on a thread of its own. Not on a Dispatch queue: on Linux Swift's
    /// tasks run on libdispatch's worker threads too, and a Python start-up on a loaded machine
    /// (seconds) blocking several of them at once held the whole parallel suite back.
    static func run(_ arguments: [String]) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try runBlocking(arguments) })
            }
            thread.name = "presign"
            thread.start()
        }
    }

    /// ``run(_:)``, blocking the calling thread until the script exits.
    private static func runBlocking(_ arguments: [String]) throws -> Data {
        guard let command else { throw Failure(description: "\(variable) is not set: run `bash scripts/test.sh`") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(command) \"$@\"", "sh"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: """
                    s3_presign.py \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \
                    \(String(decoding: message, as: UTF8.self))
                    """)
        }
        return data
    }
}
