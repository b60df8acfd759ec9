import Foundation
import Testing

@testable import APIKit

/// The one definition of a control character that the DeclaringRequests article states
/// ("Control characters") and every doc comment links to: U+0000–U+001F other than tab, and
/// U+007F. It holds for header values, content types, part names and filenames alike; a path
/// value also rejects tab. Every other scalar — C1 controls, U+2028 — is sent as UTF-8.
@Suite("Control characters: one definition for every place")
struct ControlCharacterTests {
    /// Every ASCII scalar, plus the non-ASCII ones a reader might expect to be rejected.
    static let scalars: [Unicode.Scalar] =
        (0...0x7F).compactMap(Unicode.Scalar.init) + ["\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "\u{2028}", "\u{2029}"]

    /// Whether the documented definition calls `scalar` a control character.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
    }

    struct InHeader: RequestConfiguration, Sendable {
        @Header("X-Value") var value: String? = nil
    }

    struct InContentType: RequestConfiguration, Sendable {
        @DataBody("placeholder") var data: Data? = Data("x".utf8)
        init(_ type: String) { _data = DataBody(wrappedValue: Data("x".utf8), type) }
    }

    struct InPartName: RequestConfiguration, Sendable {
        @Part("placeholder") var text = "v"
        init(_ name: String) { _text = Part(wrappedValue: "v", name) }
    }

    struct InFilename: RequestConfiguration, Sendable {
        @FilePart("f") var file = MultipartFile.data(Data("x".utf8), filename: "a.txt")
        init(_ filename: String) { file = .data(Data("x".utf8), filename: filename) }
    }

    struct InPath: RequestConfiguration, Sendable {
        @PathSegment("id") var id = ""
    }

    @Test("header values, content types, part names and filenames reject exactly U+0000–U+001F but tab, and DEL")
    func headText() throws {
        for scalar in Self.scalars {
            let text = "a\(Character(scalar))b"
            let label = "U+\(String(scalar.value, radix: 16, uppercase: true))"
            let errors: [(String, BuildError?)] = [
                ("header", buildError(InHeader(value: text))),
                ("content type", buildError(InContentType("text/\(text)"), method: .post)),
                ("part name", buildError(InPartName(text), method: .post)),
                ("filename", buildError(InFilename(text), method: .post)),
            ]
            for (place, error) in errors {
                switch (Self.isControl(scalar), error) {
                case (true, .invalidHeaderValue?) where place == "header" || place == "content type": break
                case (true, .invalidPartName?) where place == "part name": break
                case (true, .invalidFilename?) where place == "filename": break
                case (false, nil): break
                default: Issue.record("\(place) with \(label): \(String(describing: error))")
                }
            }
        }
    }

    @Test("what is not a control character is sent as its UTF-8 bytes: tab, C1 controls, U+2028")
    func sentAsUTF8() throws {
        let text = "a\tb\u{85}c\u{9F}d\u{2028}e"
        #expect(try urlRequest(InHeader(value: text)).header("X-Value") == text)
        let part = try urlRequest(InPartName(text), method: .post).sentBody ?? Data()
        #expect(String(decoding: part, as: UTF8.self).contains("name=\"\(text)\""))
        let file = try urlRequest(InFilename(text), method: .post).sentBody ?? Data()
        #expect(String(decoding: file, as: UTF8.self).contains("filename=\"\(text)\""))
    }

    @Test("a path value rejects the same characters and tab too")
    func pathValue() {
        for scalar in Self.scalars {
            let error = buildError(InPath(id: "a\(Character(scalar))b"), path: "items/{id}")
            switch (Self.isControl(scalar) || scalar == "\t", error) {
            case (true, .invalidPathValue(_, field: "id", reason: .controlCharacter)?), (false, nil): break
            default:
                Issue.record("U+\(String(scalar.value, radix: 16)) in a path value: \(String(describing: error))")
            }
        }
    }
}
