import APIKit
import Foundation

/// What httpbin echoes back about a request (`/anything`, `/get`, `/post`).
struct Echo: Decodable, Sendable {
    var args: [String: String]?
    var headers: [String: String]
    var json: Item?
    var method: String?
    var files: [String: String]?
    var form: [String: String]?

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

struct Item: Codable, Sendable, Equatable {
    var id: Int
    var name: String
}

/// A GET with a query, decoded from httpbin's echo.
struct GetEcho: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo
    var base: URL
    var path = "anything/get"
    var method: HTTPMethod { .get }
    var configuration: Self { self }
    @Query("q") var query = "a b&c"
    @Header("X-Trace") var trace: String? = "ahc"
}

/// A POST with a JSON body, decoded from httpbin's echo.
struct PostItem: JSONDecodableRequest, RequestConfiguration {
    typealias Response = Echo
    var base: URL
    var path = "anything/post"
    var method: HTTPMethod { .post }
    var configuration: Self { self }
    @JSONBody var item = Item(id: 0, name: "")
}

/// A multipart upload with one file from disk.
struct FilePartUpload: Request, RequestConfiguration {
    typealias Response = Data
    var base: URL
    var path: String
    var method: HTTPMethod { .post }
    var parser: RawDataParser { RawDataParser() }
    var configuration: Self { self }
    @Part("caption") var caption = "upload"
    @FilePart("file") var file: MultipartFile? = nil
}

/// A file as the whole body.
struct WholeFileUpload: Request, RequestConfiguration {
    typealias Response = Data
    var base: URL
    var path: String
    var method: HTTPMethod { .put }
    var parser: RawDataParser { RawDataParser() }
    var configuration: Self { self }
    @FileBody("application/octet-stream") var file: URL? = nil
}

/// What the Content-Length-only server answers.
struct LengthReport: Decodable, Sendable {
    struct Part: Decodable, Sendable {
        var name: String?
        var filename: String?
        var size: Int
        var sha256: String
    }

    var method: String
    var contentLength: Int?
    var transferEncoding: String?
    var received: Int
    var sha256: String
    var parts: [Part]?

    static func decode(_ data: Data) throws -> Self {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Self.self, from: data)
    }
}
