/// Turns the body of a rejected response into the API's error payload, carried by the
/// ``RequestError``: the `{"result": "error", "errors": [...]}` of an API becomes a value you
/// can switch on.
///
/// Set it for a whole API on the ``Session`` (``Session/errorBodyDecoder``) or for one request
/// type (``Request/errorBodyDecoder``, which wins). When a response is rejected with an HTTP
/// status outside `200..<300`, the decoder reads its body; the value is reachable with
/// ``RequestError/errorBody`` (cast it with `as?`). A body that does not decode leaves ``RequestError/errorBody``
/// `nil`; the raw bytes are always in ``RequestError/body``.
///
/// ```swift
/// struct APIFailure: Decodable, Sendable {
///     let result: String
///     let errors: [String]
/// }
///
/// let api = Session(errorBodyDecoder: .json(APIFailure.self))
/// do {
///     _ = try await SetPushRequest(accessToken: token, pushReplyMe: true).response(using: api)
/// } catch {
///     if let failure = (error.errorBody as? APIFailure) {
///         print(failure.errors)        // ["token expired"]
///     } else {
///         print(error.body ?? Data())  // the raw bytes
///     }
/// }
/// ```
public struct ErrorBodyDecoder: Sendable {
    let decode: @Sendable (_ body: Data, _ response: HTTPURLResponse) -> (any Sendable)?

    /// A decoder that runs `decode` on the body of each rejected response.
    ///
    /// - Parameter decode: Returns the payload, or `nil` when the body is not one.
    public init(_ decode: @escaping @Sendable (_ body: Data, _ response: HTTPURLResponse) -> (any Sendable)?) {
        self.decode = decode
    }

    /// Decodes the body as JSON into `type`; `nil` when it does not decode.
    ///
    /// ```swift
    /// let api = Session(errorBodyDecoder: .json(APIFailure.self))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The payload type.
    ///   - makeDecoder: Makes the `JSONDecoder` (for key and date strategies); a plain one by
    ///     default.
    /// - Returns: The decoder.
    public static func json<Payload: Decodable & Sendable>(
        _ type: Payload.Type,
        decoder makeDecoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() }
    ) -> ErrorBodyDecoder {
        ErrorBodyDecoder { body, _ in
            try? makeDecoder().decode(Payload.self, from: body)
        }
    }

    /// `error` with the decoded payload in its context, when it carries a rejected HTTP
    /// response and its body decodes.
    func decorate(_ error: RequestError) -> RequestError {
        guard let http = error.response as? HTTPURLResponse, !(200..<300).contains(http.statusCode),
            let body = error.body, let payload = decode(body, http)
        else { return error }
        return error.withContext(error.context.with(errorBody: payload))
    }
}
