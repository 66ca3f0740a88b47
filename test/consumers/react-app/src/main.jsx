// A merchant's React shop (19, or 18 when the test builds it so): a PayButton for one order, inside <StrictMode>, and a toggle that
// takes the button away. What the page heard is kept in window.__shop for the test to read.
import { PayButton } from 'paydrop/react';
import { StrictMode, useEffect, useState, version } from 'react';
import { createRoot } from 'react-dom/client';

window.__shop = { react: version, mounts: 0, successes: [], closes: [] };

function Shop() {
  const [showPay, setShowPay] = useState(true);
  const [paid, setPaid] = useState(null);
  useEffect(() => {
    window.__shop.mounts += 1;
  }, []);
  return (
    <main>
      <h1>Adire tote bag</h1>
      {showPay ? (
        <PayButton
          endpoint="/api/checkout"
          order="tote-ngn"
          className="pay"
          // New functions every render (setPaid re-renders): the latest are called, nothing reopens.
          onSuccess={(payment) => {
            window.__shop.successes.push(payment);
            setPaid(payment.reference);
          }}
          onClose={(result) => window.__shop.closes.push(result.status)}
        >
          Pay ₦25,000.50
        </PayButton>
      ) : (
        <p>The pay button is gone.</p>
      )}
      <button type="button" id="toggle" onClick={() => setShowPay((shown) => !shown)}>
        {showPay ? 'Hide' : 'Show'} the pay button
      </button>
      {paid && <p role="status">Paid: {paid}</p>}
    </main>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <Shop />
  </StrictMode>,
);
