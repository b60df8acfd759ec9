import Foundation
import Testing

@testable import APIKit

@Suite("CheckedKeys: verdicts made once per type, reused for the same strings")
struct CheckedKeysTests {
    /// Longer than a small string, so that a copy of its text is stored elsewhere.
    private static let long = String(repeating: "X-Long-Header-Name-", count: 2)
    private static let names = ["X-A", "X-B", long]

    @Test("the same strings in order, with gaps, are covered; out of order or repeated they are not")
    func order() throws {
        let checked = try #require(CheckedKeys(Self.names))
        let covered = { (keys: [String]) in checked.coversInOrder(count: keys.count) { keys[$0] } }
        #expect(covered([]))
        #expect(covered(Self.names))
        #expect(covered([Self.names[0], Self.long]))
        #expect(!covered([Self.long, Self.names[0]]))
        #expect(!covered([Self.names[1], Self.names[1]]))
    }

    @Test("a string with the same text in other storage is not covered: it is checked in full")
    func identity() throws {
        let checked = try #require(CheckedKeys(Self.names))
        let copy = String(decoding: Array(Self.long.utf8), as: UTF8.self)
        #expect(copy == Self.long)
        #expect(!checked.coversInOrder(count: 1) { _ in copy })
        #expect(!checked.coversInOrder(count: 1) { _ in "X-C" })
    }

    @propertyWrapper
    struct ExtraHeader: HeaderProtocol {
        var wrappedValue: String
        var headerFields: [HeaderField] { [HeaderField(name: "x-token", value: wrappedValue)] }
    }

    @propertyWrapper
    struct ExtraMember: BodyProtocol {
        var wrappedValue: Int
        var bodyParameters: [BodyParameter] { [BodyParameter(key: "id", value: wrappedValue, encoding: .json)] }
    }

    struct CollidingHeader: RequestConfiguration, Sendable {
        @Header("X-Token") var token: String? = "t"
        @Header("X-Other") var other: String? = nil
        @ExtraHeader var extra = "e"
    }

    struct CollidingMember: RequestConfiguration, Sendable {
        @JSON("id") var id = 1
        @JSON("name") var name: String? = nil
        @ExtraMember var extra = 2
    }

    @Test("a type's checked keys do not hide a duplicate that another wrapper declares")
    func otherWrappers() throws {
        // The plans' verdicts cover X-Token and id; the other wrappers' x-token and id are not
        // among them, in order.
        let header = try #require(buildError(CollidingHeader(), method: .post))
        guard case .duplicateHeader("x-token", fields: ["token", "extra"]) = header else {
            Issue.record("unexpected \(header)")
            return
        }
        let body = try #require(buildError(CollidingMember(), method: .post))
        guard case .duplicateBodyKey("id", fields: ["id", "extra"]) = body else {
            Issue.record("unexpected \(body)")
            return
        }
    }
}
