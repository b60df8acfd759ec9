@_spi(Testing) import APIKitTestTime
import APIKitTestTime
import Foundation
import Testing

@testable import APIKit

/// The Magics/Endpoints error payload: `{"result": "error", "errors": [...]}`.
struct APIFailure: Decodable, Sendable, Equatable {
    let result: String
    let errors: [String]
}

/// Another API's payload, for the request-level decoder.
struct LoginFailure: Decodable, Sendable, Equatable {
    let reason: String
}

@Suite("Typed error bodies: decoded into RequestError, raw bytes kept")
struct ErrorBodyTests {
    static let failureJSON = #"{"result": "error", "errors": ["token expired", "try again"]}"#

    @Test("the session's decoder reads a non-2xx body; the case still matches and the bytes stay")
    func sessionDecoder() async throws {
        let session = Session(
            transport: StubTransport { _ in .success(status: 422, body: Self.failureJSON) },
            errorBodyDecoder: .json(APIFailure.self)
        )
        for api in ["completion", "async"] {
            let result =
                api == "completion"
                ? await session.performProbed(TextRequest()).result : await TextRequest().result(session: session)
            let error = try #require(result?.errorValue)
            guard case .unacceptableStatusCode(422, let body, let response, _) = error else {
                Issue.record("unexpected \(error)")
                continue
            }
            #expect(response.statusCode == 422)
            #expect(body == Data(Self.failureJSON.utf8))
            #expect(
                (error.errorBody as? APIFailure)
                    == APIFailure(result: "error", errors: ["token expired", "try again"]))
            #expect((error.errorBody as? APIFailure)?.errors.first == "token expired")
            #expect((error.errorBody as? LoginFailure) == nil)
            #expect(
                error.description.hasSuffix(
                    "status code 422 (\(body.count) body bytes), error body decoded as APIFailure"))
            #expect(!error.description.contains("token expired"), "the payload is never printed")
        }
    }

    @Test(
        "a body that does not decode: no errorBody, the raw bytes kept", arguments: ["", "not json", #"{"result": 1}"#])
    func undecodable(body: String) async throws {
        let session = Session(
            transport: StubTransport { _ in .success(status: 500, body: body) },
            errorBodyDecoder: .json(APIFailure.self))
        let error = try #require(await session.performProbed(TextRequest()).result?.errorValue)
        #expect(error.statusCode == 500)
        #expect(error.errorBody == nil)
        #expect(error.body == Data(body.utf8))
        #expect(!error.description.contains("decoded"))
    }

    @Test("a 2xx response is never decoded as an error, even when parsing fails")
    func successIsNotDecoded() async throws {
        struct IntRequest: Request, RequestConfiguration {
            var base = stubBase
            var path = "n"
            var method: HTTPMethod { .get }
            var configuration: Self { self }
            var parser: JSONParser<Int> { JSONParser() }
        }
        let session = Session(
            transport: StubTransport { _ in .success(status: 200, body: Self.failureJSON) },
            errorBodyDecoder: .json(APIFailure.self))
        let error = try #require(await session.performProbed(IntRequest()).result?.errorValue)
        #expect(error.stage == .parsing)
        #expect(error.errorBody == nil)
    }

    @Test("the request type's decoder wins over the session's")
    func requestDecoderWins() async throws {
        let session = Session(
            transport: StubTransport { _ in .success(status: 401, body: #"{"reason": "locked"}"#) },
            errorBodyDecoder: .json(APIFailure.self)
        )
        let error = try #require(
            await session.performProbed(TextRequest(errorBodyDecoder: .json(LoginFailure.self))).result?.errorValue)
        #expect((error.errorBody as? LoginFailure) == LoginFailure(reason: "locked"))
        #expect((error.errorBody as? APIFailure) == nil)
    }

    @Test("a custom decoder sees the response; rejections by interceptors are decoded too")
    func customDecoder() async throws {
        let decoder = ErrorBodyDecoder { body, response in
            "\(response.statusCode): \(String(decoding: body, as: UTF8.self))"
        }
        struct Reject: AdaptingInterceptor {
            func inspect(_ urlResponse: URLResponse, data: Data, for context: RequestContext) async throws {
                throw ProbeFailure(stage: "inspect")
            }
        }
        let session = Session(
            transport: StubTransport { _ in .success(status: 409, body: "taken") }, interceptors: [Reject()],
            errorBodyDecoder: decoder)
        let error = try #require(await session.performProbed(TextRequest()).result?.errorValue)
        guard case .responseInterceptorFailed(_, let body, _, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(body == Data("taken".utf8))
        #expect((error.errorBody as? String) == "409: taken")
    }

    @Test("without a decoder nothing is decoded; contexts stay equal whatever the payload")
    func noDecoder() async throws {
        let session = Session(transport: StubTransport { _ in .success(status: 422, body: Self.failureJSON) })
        let error = try #require(await session.performProbed(TextRequest()).result?.errorValue)
        #expect(error.errorBody == nil)
        let decoded = error.context.with(errorBody: APIFailure(result: "error", errors: []))
        #expect(decoded == error.context)
        #expect(decoded.hashValue == error.context.hashValue)
        #expect(error.context.with(attempts: 2) != error.context)
    }

    @Test("with retries, the last response's body is decoded and the attempts counted")
    func decodedAfterRetries() async throws {
        let transport = ScriptedTransport([
            .success(status: 503, body: #"{"result": "error", "errors": ["first"]}"#),
            .success(status: 503, body: #"{"result": "error", "errors": ["last"]}"#),
        ])
        var policy = WaitRecorder().policy()
        policy.maxAttempts = 2
        let session = Session(transport: transport, retryPolicy: policy, errorBodyDecoder: .json(APIFailure.self))
            .timed(by: WaitRecorder())
        let error = try #require(await session.performProbed(TextRequest()).result?.errorValue)
        #expect((error.errorBody as? APIFailure)?.errors == ["last"])
        #expect(error.context.attempts == 2)
        #expect(error.description.hasSuffix("error body decoded as APIFailure after 2 attempts"))
    }
}
