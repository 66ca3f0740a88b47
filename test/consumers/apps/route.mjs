// app/api/checkout/[...path]/route.js of a Next.js app.
import { checkout } from './merchant.mjs';

export async function GET(request) {
  return checkout(request);
}

export async function POST(request) {
  return checkout(request);
}
