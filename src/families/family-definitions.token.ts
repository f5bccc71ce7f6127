/** The registered families (FAMILIES in production; a test registers its fake the same way). */
export const FAMILY_DEFINITIONS = Symbol('FAMILY_DEFINITIONS');
