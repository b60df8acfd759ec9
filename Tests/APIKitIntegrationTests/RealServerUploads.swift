import APIKit
import APIKitTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// What RealServerUploadTests declares and sends: S3's presigned requests (the POST's policy
// fields through a BodyProtocol wrapper of the test's own), the two ways of sending, and a
// transport that keeps what went out.

/// Bytes of a deterministic pattern that differs with `seed`, so that two files never hash alike.
func uploadPattern(size: Int, seed: UInt8) -> Data {
    Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9 &+ Int(seed)) })
}

/// Checks that `received` holds exactly the bytes of `expected`: the same length and SHA-256.
/// Not `#expect(received == expected)`: on a mismatch Swift Testing diffs the two byte
/// collections, which for bodies of a few MiB runs for many minutes, so that a failing test
/// hangs instead of failing.
func expectSameBytes(
    _ received: Data, _ expected: Data, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(received.count == expected.count, comment, sourceLocation: sourceLocation)
    #expect(SHA256.hex(received) == SHA256.hex(expected), comment, sourceLocation: sourceLocation)
}

/// The ways the tests send (``TestTransport/all(spoolDirectory:)``): in the root package,
/// APIKit's transport with the test's own spool directory (where spool files can be counted)
/// and `URLSession.shared`, the spec's `perform(session:)` road; over AsyncHTTPClient, its
/// transport.
func uploadTransports(spoolingTo scratch: ScratchDirectory) -> [(name: String, transport: any Transport)] {
    TestTransport.all(spoolDirectory: scratch.url)
}

/// The two ways the tests send, as sessions.
func uploadSessions(spoolingTo scratch: ScratchDirectory) -> [(name: String, session: Session)] {
    uploadTransports(spoolingTo: scratch).map { ($0.name, Session(transport: $0.transport)) }
}

/// Forwards to a transport and keeps each request it was given, with the answer: every build of
/// a multipart request has a boundary of its own (a retry builds it again), so a test hashes the
/// body that went out, not another build of it.
struct CapturingTransport: Transport {
    struct Exchange: Sendable {
        var request: URLRequest
        var answer: Data?
    }

    let base: any Transport
    let exchanges = Protected<[Exchange]>([])

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        base.send(request, progress: progress) { [exchanges] result in
            exchanges.append(Exchange(request: request, answer: try? result.get().data))
            completion(result)
        }
    }
}

// MARK: - Requests

/// A presigned URL fetched as it is: the bytes and the `Content-Type` the server stored.
struct PresignedGet: Request, RequestConfiguration {
    struct Object: Sendable {
        var data: Data
        var contentType: String?
    }

    var base: URL
    var path: String { "" }
    var method: HTTPMethod { .get }
    var parser: RawDataParser { RawDataParser() }
    var configuration: Self { self }

    func response(from object: Data, urlResponse: URLResponse) throws -> Object {
        Object(data: object, contentType: (urlResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type"))
    }
}

/// One field of a presigned POST's policy.
struct PolicyField: Sendable, Hashable {
    var name: String
    var value: String
}

/// A presigned POST's policy fields as text parts, in the order given: a set of names known
/// only at run time, which `@Part` (one name each) cannot declare.
@propertyWrapper
struct PolicyFields: BodyProtocol, Sendable {
    var wrappedValue: [PolicyField]

    var bodyParameters: [BodyParameter] {
        wrappedValue.map { BodyParameter(key: $0.name, value: $0.value, encoding: .multipart) }
    }
}

/// An S3 presigned POST: the policy fields first, the file last, as S3 requires.
struct PresignedPostUpload: Request, RequestConfiguration {
    var base: URL
    var path: String { "" }
    var method: HTTPMethod { .post }
    var parser: RawDataParser { RawDataParser() }
    var configuration: Self { self }
    @PolicyFields var fields: [PolicyField] = []
    @FilePart("file") var file: MultipartFile? = nil
}

/// An S3 presigned PUT of a file as the whole body.
struct PresignedPutUpload: Request, RequestConfiguration {
    var base: URL
    var path: String { "" }
    var method: HTTPMethod { .put }
    var parser: RawDataParser { RawDataParser() }
    var configuration: Self { self }
    @FileBody("application/x-tar") var file: URL? = nil
}

extension Presigner {
    /// A presigned POST with its fields in the order `s3_presign.py` printed them (boto3's);
    /// ``Presigner/Post`` holds them in a dictionary, which forgets the order.
    static func orderedPost(bucket: String, key: String) async throws -> (url: URL, fields: [PolicyField]) {
        let output = try await run(["presign-post", bucket, key])
        let post = try JSONDecoder().decode(Post.self, from: output)
        let text = String(decoding: output, as: UTF8.self)
        // json.dump writes `"name": value`; the names are ASCII and occur once.
        let placed = try post.fields.map { name, value in
            guard let range = text.range(of: "\"\(name)\": ") else {
                throw Failure(description: "field \(name) not found in the presigner's output: \(text)")
            }
            return (position: range.lowerBound, field: PolicyField(name: name, value: value))
        }
        return (post.url, placed.sorted { $0.position < $1.position }.map(\.field))
    }
}
