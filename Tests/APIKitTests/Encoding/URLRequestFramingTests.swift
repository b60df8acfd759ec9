import Foundation
import Testing

@testable import APIKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a hook hands back is read in full for framing headers, however little it changed: no
/// shortcut decides from how Foundation stores a `URLRequest` that nothing changed.
@Suite("URLRequest.firstFramingHeader(): every header of every request, every time")
struct URLRequestFramingTests {
    /// A request whose `intercept(urlRequest:)` runs `change` on what it is given.
    struct Intercepting: Request, RequestConfiguration {
        typealias Response = Data
        var base: URL { URL(string: "https://api.example.com")! }
        var path: String { "items" }
        var method: HTTPMethod { .post }
        var parser: RawDataParser { RawDataParser() }
        var configuration: Self { self }
        @Header("Accept") var accept: String? = "application/json"
        @JSON("name") var name = "n"
        var change: @Sendable (inout URLRequest) -> Void

        func intercept(urlRequest: URLRequest) throws -> URLRequest {
            var request = urlRequest
            change(&request)
            return request
        }
    }

    /// The framing header that `makeURLRequest()` refused, when it refused one added by the hook.
    private static func refused(_ change: @escaping @Sendable (inout URLRequest) -> Void) -> String? {
        do {
            _ = try Intercepting(change: change).makeURLRequest()
            return nil
        } catch {
            guard case .buildFailed(.framingHeader(let name, .requestIntercept), _) = error else { return nil }
            return name
        }
    }

    @Test("a hook that changes only a header's value is checked, and passes")
    func changedValue() throws {
        let request = try Intercepting { $0.setValue("text/plain", forHTTPHeaderField: "Accept") }.makeURLRequest()
        #expect(request.value(forHTTPHeaderField: "Accept") == "text/plain")
        #expect(request.firstFramingHeader() == nil)
    }

    @Test("a hook that adds only a framing header fails, in any case of its name")
    func addedFramingHeader() {
        // Foundation may change a name's case: it is compared as HTTP compares names.
        let refusals = [
            (Self.refused { $0.setValue("5", forHTTPHeaderField: "Content-Length") }, "Content-Length"),
            (Self.refused { $0.setValue("chunked", forHTTPHeaderField: "transfer-encoding") }, "Transfer-Encoding"),
            (Self.refused { $0.setValue("trailers", forHTTPHeaderField: "TE") }, "TE"),
        ]
        for (refused, name) in refusals {
            #expect(refused.map { HTTPSyntax.namesEqual($0, name) } == true, "\(name): \(refused ?? "nil")")
        }
        #expect(Self.refused { $0.setValue("text/plain", forHTTPHeaderField: "Accept") } == nil)
    }

    @Test("a hook that swaps a header for a framing one, leaving as many headers, fails")
    func swappedHeader() {
        let name = Self.refused { request in
            request.setValue(nil, forHTTPHeaderField: "Accept")
            request.setValue("close", forHTTPHeaderField: "Connection")
        }
        #expect(name == "Connection")
    }

    @Test("a request is checked as it is, whatever it was made from: a copy carries its framing header")
    func copies() {
        var request = URLRequest(url: URL(string: "https://api.example.com")!)
        request.setValue("0", forHTTPHeaderField: "Content-Length")
        let copy = request
        #expect(copy.firstFramingHeader() == "Content-Length")
        #expect(URLRequest(url: URL(string: "https://api.example.com")!).firstFramingHeader() == nil)
    }

    @Test("a name one byte away from a framing header is not one; its case never matters")
    func nearMisses() {
        for name in HTTPSyntax.framingHeaderNames {
            let bytes = Array(name.utf8)
            for index in bytes.indices {
                for replacement in [UInt8(ascii: "x"), UInt8(ascii: "-"), 0xC3] where replacement != bytes[index] | 0x20
                {
                    var changed = bytes
                    changed[index] = replacement
                    let text = String(decoding: changed, as: UTF8.self)
                    #expect(!HTTPSyntax.isFramingHeader(text), "\(text)")
                }
            }
            #expect(!HTTPSyntax.isFramingHeader(name + "s") && !HTTPSyntax.isFramingHeader(String(name.dropLast())))
            let mixed = String(
                name.enumerated().map {
                    $0.offset.isMultiple(of: 2)
                        ? Character($0.element.uppercased()) : Character($0.element.lowercased())
                })
            #expect(HTTPSyntax.isFramingHeader(mixed), "\(mixed)")
        }
        #expect(!HTTPSyntax.isFramingHeader(""))
        #expect(!HTTPSyntax.isFramingHeader("User-Agent") && !HTTPSyntax.isFramingHeader("X-Trace-ID"))
    }
}
