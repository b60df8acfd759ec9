import Foundation
import Testing

@testable import APIKit

extension Caching {
    @Suite("Stored records: the bytes a store keeps, read back whole or not at all")
    struct StoredRecordTests {
        static let record = StoredRecord(variants: [
            StoredResponse(
                partition: SHA256.digest("Bearer a".utf8), varyNames: ["accept", "accept-language"],
                varyFingerprint: [1, 2, 3], requestTime: Date(timeIntervalSince1970: 1_800_000_000.25),
                responseTime: Date(timeIntervalSince1970: 1_800_000_001.5), url: "https://api.example.test/v1/ü?q=1",
                status: 200, headers: [.init(name: "ETag", value: "\"v1\""), .init(name: "X-Ünicode", value: "é")],
                body: Data("hello".utf8)),
            StoredResponse(
                partition: [], varyNames: [], varyFingerprint: [], requestTime: Date(timeIntervalSince1970: 0),
                responseTime: Date(timeIntervalSince1970: 0), url: "", status: 404, headers: [], body: Data()),
        ])

        @Test("A record reads back equal")
        func roundTrip() {
            #expect(StoredRecord(decoding: Self.record.encoded()) == Self.record)
            #expect(StoredRecord(decoding: StoredRecord(variants: []).encoded()) == StoredRecord(variants: []))
        }

        @Test("A body read from a record is served as bytes of its own, indexed from 0")
        func responseBody() throws {
            let body = Data((0..<100).map { UInt8($0) })
            var variant = Self.record.variants[0]
            variant.body = body
            let decoded = try #require(StoredRecord(decoding: StoredRecord(variants: [variant]).encoded()))
            let served = decoded.variants[0].responseBody
            #expect(served == body)
            #expect(served.startIndex == 0)
        }

        @Test("A served head is built again when what it is built from changes, and only then")
        func servedHead() {
            var variant = Self.record.variants[0]
            let builds = Locked(0)
            func head(_ variant: StoredResponse, age: String, status: String = "APIKit; hit") -> HTTPURLResponse {
                variant.servedHead(age: age, cacheStatus: status) {
                    builds.withLock { $0 += 1 }
                    return HTTPURLResponse(
                        url: URL(string: variant.url)!, statusCode: variant.status, httpVersion: nil,
                        headerFields: ["Age": age])!
                }
            }
            let first = head(variant, age: "1")
            #expect(head(variant, age: "1") === first)
            #expect(builds.withLock { $0 } == 1)
            let older = head(variant, age: "2")
            #expect(older !== first && older.value(forHTTPHeaderField: "Age") == "2")
            #expect(head(variant, age: "2", status: "APIKit; hit; detail=stale") !== older)
            #expect(builds.withLock { $0 } == 3)
            variant.status = 203
            #expect(head(variant, age: "2").statusCode == 203)
            variant.url = "https://api.example.test/other"
            #expect(head(variant, age: "2").url?.absoluteString == "https://api.example.test/other")
            variant.headers.append(.init(name: "X-New", value: "1"))
            _ = head(variant, age: "2")
            #expect(builds.withLock { $0 } == 6, "each change of status, URL or headers builds anew")
        }

        @Test("The fields and directives read from the head follow the headers of each copy")
        func readHead() {
            var variant = Self.record.variants[0]
            variant.headers = [.init(name: "Cache-Control", value: "max-age=60"), .init(name: "x-a", value: "1")]
            let copy = variant
            #expect(variant.directives.maxAge == 60)
            #expect(variant.headerFields == ["Cache-Control": "max-age=60", "x-a": "1"])
            variant.headers.append(.init(name: "X-A", value: "2"))
            variant.headers[0].value = "no-cache"
            #expect(variant.directives.maxAge == nil)
            #expect(variant.directives.noCache)
            #expect(variant.headerFields == ["Cache-Control": "no-cache", "x-a": "1, 2"])
            #expect(copy.directives.maxAge == 60)
            #expect(copy.headerFields == ["Cache-Control": "max-age=60", "x-a": "1"])
            variant.headers += [
                .init(name: "age", value: "5"), .init(name: "DATE", value: "Sun, 06 Nov 1994 08:49:37 GMT"),
            ]
            #expect(variant.reading.age == "5" && variant.reading.date == "Sun, 06 Nov 1994 08:49:37 GMT")
            #expect(copy.reading.age == nil && copy.reading.date == nil)
        }

        @Test("A record cut at any byte, or with a byte added, is no record")
        func truncated() {
            let bytes = Self.record.encoded()
            for count in 0..<bytes.count {
                #expect(StoredRecord(decoding: bytes.prefix(count)) == nil, "cut at \(count)")
            }
            #expect(StoredRecord(decoding: bytes + [0]) == nil)
        }

        @Test("Bytes of another format, or lengths out of range, are no record")
        func foreign() {
            var bytes = Self.record.encoded()
            bytes[0] = UInt8(ascii: "X")
            #expect(StoredRecord(decoding: bytes) == nil)
            var huge = Data("AKC1".utf8)
            withUnsafeBytes(of: Int64.max.littleEndian) { huge.append(contentsOf: $0) }
            #expect(StoredRecord(decoding: huge) == nil)
            var negative = Data("AKC1".utf8)
            withUnsafeBytes(of: Int64(1).littleEndian) { negative.append(contentsOf: $0) }
            withUnsafeBytes(of: Int64(-5).littleEndian) { negative.append(contentsOf: $0) }
            #expect(StoredRecord(decoding: negative) == nil)
        }
    }
}
