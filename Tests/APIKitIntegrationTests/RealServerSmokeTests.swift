import APIKit
import Testing

/// One request per real server over plain `URLSession`, proving that `scripts/test.sh` started
/// it and that it answers as its script says; APIKit's own requests are tested elsewhere.
@Suite("Real servers answer")
struct RealServerSmokeTests {
    /// 10,000 bytes that are not all text: 0, 1, ..., 250, 0, 1, ...
    static let body = Data((0..<10_000).map { UInt8($0 % 251) })

    @Test("SHA256 matches the FIPS 180-4 test vectors the servers' hashlib would give")
    func sha256() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test(
        "FastAPI echoes a JSON body and reports its Content-Length",
        .enabled(if: FastAPIServer.url != nil, FastAPIServer.skipReason))
    func fastAPIEchoesJSON() async throws {
        struct Echoed: Decodable {
            struct Value: Decodable, Equatable {
                var name: String
                var numbers: [Int]
            }
            var json: Value
            var headers: [String: String?]
        }
        let base = try #require(FastAPIServer.url)
        var request = URLRequest(url: base.appendingPathComponent("json"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let body = Data(#"{"name":"東京 👍🏽","numbers":[1,2,3]}"#.utf8)
        request.httpBody = body

        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let echoed = try JSONDecoder().decode(Echoed.self, from: data)
        #expect(echoed.json == Echoed.Value(name: "東京 👍🏽", numbers: [1, 2, 3]))
        #expect(echoed.headers["content-length"] == String(body.count))
    }

    @Test(
        "the Content-Length server receives an in-memory body whole",
        .enabled(if: LengthServer.url != nil, LengthServer.skipReason))
    func lengthServerReadsContentLength() async throws {
        let base = try #require(LengthServer.url)
        var request = URLRequest(url: base.appendingPathComponent("smoke"))
        request.httpMethod = "POST"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        request.httpBody = Self.body

        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let report = try LengthServerReport.decode(data)
        #expect(report.method == "POST")
        #expect(report.path == "/smoke")
        #expect(report.contentLength == Self.body.count)
        #expect(report.received == Self.body.count)
        #expect(report.transferEncoding == nil)
        #expect(report.sha256 == SHA256.hex(Self.body))
    }

    @Test(
        "moto stores a presigned PUT and a presigned GET returns the same bytes",
        .enabled(if: S3Server.url != nil && Presigner.command != nil, S3Server.skipReason))
    func s3PresignedPutThenGet() async throws {
        let bucket = try await Presigner.createBucket()
        var put = URLRequest(url: try await Presigner.put(bucket: bucket, key: "smoke/body.bin"))
        put.httpMethod = "PUT"
        let (_, stored) = try await URLSession.shared.upload(for: put, from: Self.body)
        #expect((stored as? HTTPURLResponse)?.statusCode == 200)

        let get = URLRequest(url: try await Presigner.get(bucket: bucket, key: "smoke/body.bin"))
        let (data, response) = try await URLSession.shared.data(for: get)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(data == Self.body)
    }
}
