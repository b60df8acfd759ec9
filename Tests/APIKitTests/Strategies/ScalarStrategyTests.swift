import APIKit
import Foundation
import Testing

/// 2023-11-14T22:13:20.25Z.
let sampleDate = Date(timeIntervalSince1970: 1_700_000_000.25)

@Suite("BoolEncoding, DateEncoding and NilEncoding in query strings, form bodies and JSON bodies")
struct ScalarStrategyTests {
    struct Values: RequestConfiguration, Sendable {
        @Query("b") var bool = true
        @Query("f") var maybe: Bool? = false
        @Query("d") var date = sampleDate
        @Query("n") var missing: Int? = nil
        @Query("s") var text = "true"
        @Query("bs") var bools = [true, false]
        @Query("ds") var dates = [Date(timeIntervalSince1970: 0)]
    }

    @Test("defaults: true/false, ISO 8601 to the second in UTC, nil omitted")
    func defaults() throws {
        #expect(
            try urlRequest(Values()).percentEncodedQuery
                == "b=true&f=false&d=2023-11-14T22%3A13%3A20Z&s=true&bs=true&bs=false&ds=1970-01-01T00%3A00%3A00Z"
        )
    }

    @Test("numeric bools write 1/0, for Bool, Bool? and [Bool]; a String \"true\" is left alone")
    func numericBools() throws {
        #expect(
            try urlRequest(Values(), strategy: .init(bools: .numeric)).percentEncodedQuery
                == "b=1&f=0&d=2023-11-14T22%3A13%3A20Z&s=true&bs=1&bs=0&ds=1970-01-01T00%3A00%3A00Z"
        )
    }

    @Test(
        "each date strategy, for Date and [Date]",
        arguments: [
            (DateEncoding.iso8601, "2023-11-14T22%3A13%3A20Z", "1970-01-01T00%3A00%3A00Z"),
            (.iso8601WithFractionalSeconds, "2023-11-14T22%3A13%3A20.250Z", "1970-01-01T00%3A00%3A00.000Z"),
            (.secondsSince1970, "1700000000.25", "0"),
            (.millisecondsSince1970, "1700000000250", "0"),
            (.custom { "day-\(Int($0.timeIntervalSince1970) / 86_400)" }, "day-19675", "day-0"),
            (.custom { Date.ISO8601FormatStyle().year().month().day().format($0) }, "2023-11-14", "1970-01-01"),
        ]
    )
    func dates(strategy: DateEncoding, text: String, epoch: String) throws {
        #expect(
            try urlRequest(Values(), strategy: .init(dates: strategy)).percentEncodedQuery
                == "b=true&f=false&d=\(text)&s=true&bs=true&bs=false&ds=\(epoch)"
        )
    }

    @Test("milliseconds are rounded to a whole number; whole seconds have no fraction")
    func epochRounding() throws {
        struct Config: RequestConfiguration, Sendable {
            @Query("ms", strategy: .init(dates: .millisecondsSince1970)) var ms = Date(timeIntervalSince1970: 1.0006)
            @Query("s", strategy: .init(dates: .secondsSince1970)) var s = Date(timeIntervalSince1970: -5)
        }
        #expect(try urlRequest(Config()).percentEncodedQuery == "ms=1001&s=-5")
    }

    @Test(
        "a date that is NaN or infinite fails with nonFiniteNumber, in a query under every date strategy, and in a JSON body",
        arguments: [DateEncoding.iso8601, .secondsSince1970, .millisecondsSince1970])
    func nonFiniteDate(dates: DateEncoding) throws {
        struct Config: RequestConfiguration, Sendable {
            @Query("t") var t = Date(timeIntervalSince1970: .nan)
        }
        struct Infinite: RequestConfiguration, Sendable {
            @Query("t") var t: Date? = Date(timeIntervalSince1970: -.infinity)
        }
        for error in [
            buildError(Config(), strategy: .init(dates: dates)), buildError(Infinite(), strategy: .init(dates: dates)),
        ] {
            guard case .unsupportedValue(field: "t", key: "t", reason: .nonFiniteNumber)? = error else {
                Issue.record("expected nonFiniteNumber, got \(String(describing: error))")
                continue
            }
        }
        struct Body: RequestConfiguration, Sendable {
            @JSON("t") var t = Date(timeIntervalSince1970: .infinity)
        }
        let body = buildError(Body(), method: .post, strategy: .init(dates: dates))
        guard case .valueEncodingFailed(field: "t", key: "t", _)? = body else {
            Issue.record("expected valueEncodingFailed, got \(String(describing: body))")
            return
        }
    }

    @Test("nil strategies: omit (default), empty key=, literal null; for nil values and nil elements")
    func nils() throws {
        struct Config: RequestConfiguration, Sendable {
            @Query("a") var a: Int? = nil
            @Query("b") var b: String?? = .some(nil)
            @Query("c") var c: [String?] = ["x", nil]
            @Query("d") var d: Date? = nil
        }
        #expect(try urlRequest(Config()).percentEncodedQuery == "c=x")
        #expect(try urlRequest(Config(), strategy: .init(nils: .empty)).percentEncodedQuery == "a=&b=&c=x&c=&d=")
        #expect(
            try urlRequest(Config(), strategy: .init(nils: .null)).percentEncodedQuery
                == "a=null&b=null&c=x&c=null&d=null"
        )
        #expect(
            try urlRequest(Config(), strategy: .init(arrays: .commaSeparated, nils: .null)).percentEncodedQuery
                == "a=null&b=null&c=x,null&d=null"
        )
    }

    @Test("form bodies use the same Bool, Date and nil rules")
    func form() throws {
        struct Form: RequestConfiguration, Sendable {
            @Field("at", strategy: .init(bools: .numeric, dates: .secondsSince1970)) var at = sampleDate
            @Field("ok", strategy: .init(bools: .numeric, dates: .secondsSince1970)) var ok = true
            @Field("gone", strategy: .init(nils: .empty)) var gone: String? = nil
            @Field("plain") var plain = false
        }
        #expect(try urlRequest(Form(), method: .post).bodyText == "at=1700000000.25&ok=1&gone=&plain=false")
    }

    struct Inner: Encodable, Sendable {
        var on = true
        var at = sampleDate
        var name = "true false"
        var note: String? = nil
    }

    struct JSONValues: RequestConfiguration, Sendable {
        @JSON("on") var on = true
        @JSON("at") var at = sampleDate
        @JSON("inner") var inner = Inner()
        @JSON("list") var list: [Bool?] = [true, nil, false]
        @JSON("gone") var gone: String? = nil
    }

    @Test("JSON defaults: literal bools, ISO 8601 dates, nil members omitted")
    func jsonDefaults() throws {
        #expect(
            try urlRequest(JSONValues(), method: .post).bodyText
                == #"{"on":true,"at":"2023-11-14T22:13:20Z","inner":{"at":"2023-11-14T22:13:20Z","name":"true false","on":true},"list":[true,null,false]}"#
        )
    }

    @Test("JSON: numeric bools everywhere (not inside strings), epoch dates as numbers, nil as null")
    func jsonStrategies() throws {
        #expect(
            try urlRequest(
                JSONValues(),
                method: .post,
                strategy: .init(bools: .numeric, dates: .millisecondsSince1970, nils: .null)
            ).bodyText
                == #"{"on":1,"at":1700000000250,"inner":{"at":1700000000250,"name":"true false","on":1},"list":[1,null,0],"gone":null}"#
        )
        #expect(
            try urlRequest(JSONValues(), method: .post, strategy: .init(dates: .secondsSince1970, nils: .empty))
                .bodyText
                == #"{"on":true,"at":1700000000.25,"inner":{"at":1700000000.25,"name":"true false","on":true},"list":[true,null,false]}"#
        )
        #expect(
            try urlRequest(JSONValues(), method: .post, strategy: .init(dates: .iso8601WithFractionalSeconds)).bodyText
                == #"{"on":true,"at":"2023-11-14T22:13:20.250Z","inner":{"at":"2023-11-14T22:13:20.250Z","name":"true false","on":true},"list":[true,null,false]}"#
        )
    }

    @Test("a whole JSON body uses the request's date and bool strategies")
    func wholeJSONBody() throws {
        struct Whole: RequestConfiguration, Sendable {
            @JSONBody var body = Inner()
        }
        #expect(
            try urlRequest(Whole(), method: .post, strategy: .init(bools: .numeric, dates: .secondsSince1970)).bodyText
                == #"{"at":1700000000.25,"name":"true false","on":1}"#
        )
    }

    @Test("escaped quotes inside JSON strings do not confuse the bool rewrite")
    func boolRewriteRespectsStrings() throws {
        struct Config: RequestConfiguration, Sendable {
            @JSON("v", strategy: .init(bools: .numeric)) var v = ["a\"true\\": [true], "t": [false]]
        }
        #expect(try urlRequest(Config(), method: .post).bodyText == #"{"v":{"a\"true\\":[1],"t":[0]}}"#)
    }

    @Test("strategies do not touch headers, path segments or @QueryDict")
    func untouched() throws {
        struct Config: RequestConfiguration, Sendable {
            @Header("X-Flag") var flag: String? = "true"
            @PathSegment("id") var id = true
            @QueryDict var dict: [String: String]? = ["k": "true"]
            @KeyQuery("v") var verbose = true
        }
        let request = try urlRequest(
            Config(),
            path: "items/{id}",
            strategy: .init(arrays: .commaSeparated, bools: .numeric, nils: .null)
        )
        #expect(request.url?.absoluteString == "https://api.example.com/items/true?k=true&v")
        #expect(request.header("X-Flag") == "true")
    }
}
