import { hash, randomInt } from 'node:crypto';

/** Crockford's base 32: no I, L, O or U, so a code read aloud or typed from paper is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 20 characters of 5 bits: 100 bits, far past guessing. */
const LENGTH = 20;

/** A new code, in groups of four for reading: `7KQ2-...`. */
export function newRedemptionCode(): string {
  const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** What a customer typed, as stored: upper case, without dashes or spaces; I and L read as 1, O as 0. */
export function normalizeRedemptionCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

export const hashRedemptionCode = (normalized: string): string => hash('sha256', normalized, 'hex');

/** The last four characters, shown in lists and in the ledger row's detail. */
export const redemptionCodeHint = (normalized: string): string => normalized.slice(-4);
