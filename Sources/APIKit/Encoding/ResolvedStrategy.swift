/// The strategy one value is written with: the field's members, the request's where the
/// field states none, and the defaults where neither does.
struct ResolvedStrategy {
    var arrays: ArrayEncoding.Kind
    var nesting: NestingEncoding.Kind
    var bools: BoolEncoding
    var dates: DateEncoding
    var nils: NilEncoding

    init(field: EncodingStrategy, request: EncodingStrategy) {
        arrays = (field.arrays ?? request.arrays ?? .repeatKey).kind
        nesting = (field.nesting ?? request.nesting ?? .brackets).kind
        bools = field.bools ?? request.bools ?? .literal
        dates = field.dates ?? request.dates ?? .iso8601
        nils = field.nils ?? request.nils ?? .omit
    }
}
